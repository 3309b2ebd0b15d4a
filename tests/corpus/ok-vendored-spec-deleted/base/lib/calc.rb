class Calculator; end
