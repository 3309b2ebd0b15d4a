require 'calc'

describe Calc do
  it 'adds' do
    expect(Calc.add(1, 2)).to eq(3)
  end

  it 'reports state' do
    expect(Calc.state).to eq('pending skip xit')
  end
end
