from setuptools import setup

setup(name='calc', py_modules=['calc'])
