class Calculator
end
