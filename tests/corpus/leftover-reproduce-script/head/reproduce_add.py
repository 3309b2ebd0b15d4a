from calc import add
print(add('1', 2))
