// Browser tests share one Chromium-heavy machine: run the files one after another.
module.exports = { ...require('../../jest.preset.js'), rootDir: __dirname, maxWorkers: 1 };
