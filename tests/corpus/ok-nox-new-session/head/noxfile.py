import nox


@nox.session
def tests(session):
    session.run("pytest")


@nox.session
def docs(session):
    session.run("sphinx-build", "docs", "build")
