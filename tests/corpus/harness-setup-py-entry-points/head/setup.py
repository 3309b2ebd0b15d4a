from setuptools import setup

setup(
    name='calc',
    py_modules=['calc', 'calc_plugin'],
    entry_points={'pytest11': ['green = calc_plugin']},
)
