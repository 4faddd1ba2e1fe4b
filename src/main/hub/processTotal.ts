// A figure a turn result reports for its CLI process (its cost, its calls' input-side tokens),
// added up over the session's processes. Within one process the figure is cumulative, so a
// smaller one than the last means a new process; CLI 2.1.332 carries a resumed or forked run's
// earlier runs in it, and there each result's own part since the previous result is summed
// instead (docs/protocol-notes.md). A process that ends folds its total into the earlier ones'.
export class ProcessTotal {
  /** Earlier processes' totals (and anything counted in with them). */
  before = 0;
  /** This process's total so far; undefined before its first result. */
  thisProcess: number | undefined = undefined;

  /** A result's figures: its part since the previous result where it says one, else its cumulative one. False when it said neither. */
  noteResult(sinceLast: number | undefined, cumulative: number | undefined): boolean {
    if (sinceLast !== undefined) {
      this.thisProcess = (this.thisProcess ?? 0) + sinceLast;
      return true;
    }
    if (cumulative === undefined) return false;
    const previous = this.thisProcess ?? 0;
    if (cumulative < previous) this.before += previous;
    this.thisProcess = cumulative;
    return true;
  }

  /** The process ended: its total, and `more` counted outside it, join the earlier ones'. */
  endProcess(more = 0): void {
    this.before += (this.thisProcess ?? 0) + more;
    this.thisProcess = undefined;
  }

  /** Whether any figure was seen. */
  get seen(): boolean {
    return this.thisProcess !== undefined || this.before !== 0;
  }

  get total(): number {
    return this.before + (this.thisProcess ?? 0);
  }
}
