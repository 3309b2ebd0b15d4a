from setuptools.build_meta import *  # noqa: F403
