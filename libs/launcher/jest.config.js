// The launcher's own pieces (ports, readiness) against real processes; the whole platform is in apps/e2e.
module.exports = { ...require('../../jest.preset.js'), rootDir: __dirname };
