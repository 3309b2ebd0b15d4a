require 'calc'

describe Calc do
  it 'adds' do
    expect(Calc.add(1, 2)).to eq(3)
  end

  it 'prints' do
    text = <<~TXT
      xit skip pending
    TXT
    expect(text).to include('skip')
  end
end
