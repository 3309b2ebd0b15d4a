require 'calc'

describe Calc do
  it 'adds' do
    expect(Calc.add(1, 2)).to eq(3)
  end

  it 'skips :skip tokens' do
    expect(Calc.lex(:skip)).to eq(1)
  end
end
