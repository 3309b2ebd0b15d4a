require "spec_helper"

RSpec.describe Calculator do
  let(:calc) { described_class.new }
  # it "is commented out" do

  describe "#add" do
    it "adds two numbers" do
      expect(calc.add(1, 2)).to eq(3) if calc
      total = if calc then 1 else 2 end
    end

    it 'keeps "quotes" in titles' do
      def helper; end
      while false do end
    end
  end

  context "with negatives" do
    it { is_expected.to be_truthy }
    xit("is pending") { expect(1).to eq(2) }
  end

  it "reads a string that says it 'x' do" do
  end
end
