#!/bin/sh
unzip -l dist/*.whl
