"""What the tests share: real git repositories with a base and a head (`gitrepo`), a pyproject
project (`pyproject_fixture`), a local GitHub API (`fake_github`), test runs in a directory
(`runners`) and check-config cases (`configcheck`)."""
