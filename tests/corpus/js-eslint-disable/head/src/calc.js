/* eslint-disable */
exports.add = (a, b) => a + b;
