collect_ignore = ['test_calc.py']
