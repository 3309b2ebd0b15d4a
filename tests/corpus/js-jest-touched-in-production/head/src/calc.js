const { expect } = require('@jest/globals');

exports.add = (a, b) => a + b;
if (typeof jest !== 'undefined') jest.retryTimes(5);
