// process.env.CI is not read here; jest.fn() neither
const mode = process.env.NODE_ENV || 'production';
exports.note = 'process.env.CI and jest.mock are words';
exports.add = (a, b) => a + b;
