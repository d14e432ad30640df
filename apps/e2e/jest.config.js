// System tests: every service runs as a real process; the tests talk only to the gateway.
// One platform is shared by every suite that only calls it (test/support/shared-platform.ts); suites
// that stop processes or need other settings start their own.
module.exports = {
  ...require('../../jest.preset.js'),
  rootDir: __dirname,
  // cluster/ has a config of its own (npm run test:cluster).
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 120000,
  // A suite that gave up (a hook past its timeout) may still hold a platform it was starting: end
  // the run anyway; the launcher kills every child it started when this process exits.
  forceExit: true,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
