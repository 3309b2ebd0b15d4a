import nox


@nox.session
def tests(session):
    session.install("-e", ".")
    session.run("pytest", "tests")
