import nox


@nox.session
def tests(session):
    session.install("-e", ".")
    # run the suite
    session.run(
        "pytest",
        "tests",
    )


@nox.session
def lint(session):
    session.run("ruff", "check", ".")
