module.exports = { testEnvironment: 'node', testPathIgnorePatterns: ['calc'] };
