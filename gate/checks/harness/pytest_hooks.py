"""The names of pytest's own hooks (its hookspec, pytest 8): a function of that name in code
under test is a hook pytest calls when the module is a plugin; any other `pytest_*` name (a
helper such as `pytest_args`) is not one."""
from __future__ import annotations

HOOKS = frozenset({
    "pytest_addhooks", "pytest_addoption", "pytest_assertion_pass",
    "pytest_assertrepr_compare", "pytest_cmdline_main", "pytest_cmdline_parse",
    "pytest_collect_directory", "pytest_collect_file", "pytest_collection",
    "pytest_collection_finish", "pytest_collection_modifyitems", "pytest_collectreport",
    "pytest_collectstart", "pytest_configure", "pytest_deselected", "pytest_enter_pdb",
    "pytest_exception_interact", "pytest_fixture_post_finalizer", "pytest_fixture_setup",
    "pytest_generate_tests", "pytest_ignore_collect", "pytest_internalerror",
    "pytest_itemcollected", "pytest_keyboard_interrupt", "pytest_leave_pdb",
    "pytest_load_initial_conftests", "pytest_make_collect_report",
    "pytest_make_parametrize_id", "pytest_markeval_namespace", "pytest_plugin_registered",
    "pytest_pycollect_makeitem", "pytest_pycollect_makemodule", "pytest_pyfunc_call",
    "pytest_report_collectionfinish", "pytest_report_from_serializable",
    "pytest_report_header", "pytest_report_teststatus", "pytest_report_to_serializable",
    "pytest_runtest_call", "pytest_runtest_logfinish", "pytest_runtest_logreport",
    "pytest_runtest_logstart", "pytest_runtest_makereport", "pytest_runtest_protocol",
    "pytest_runtest_setup", "pytest_runtest_teardown", "pytest_runtestloop",
    "pytest_sessionfinish", "pytest_sessionstart", "pytest_terminal_summary",
    "pytest_unconfigure", "pytest_warning_recorded",
})
