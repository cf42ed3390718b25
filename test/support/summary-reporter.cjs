// Prints one plain closing line ("N passed, N failed, N skipped") that CI can read.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const line =
      `${results.numPassedTests} passed, ${results.numFailedTests} failed` +
      (results.numPendingTests ? `, ${results.numPendingTests} skipped` : '');
    process.stdout.write(`\njest: ${line}\n`);
  }
}
module.exports = SummaryReporter;
