// System tests: every service runs as a real process; the tests talk only to the gateway.
module.exports = { ...require('../../jest.preset.js'), rootDir: __dirname, testTimeout: 120000 };
