// What the page itself reports while the stream plays: long tasks and long animation frames
// (Chromium's own > 50 ms observers), DOM mutations in the transcript (so a frozen page cannot
// pass), and at the end what the Subagent cards show. The functions run inside the page.

export interface ProbeResult {
  readonly longTasks: readonly number[];
  /** Long animation frames: duration and blocking duration, ms. */
  readonly longFrames: readonly { readonly duration: number; readonly blocking: number }[];
  readonly loafSupported: boolean;
  readonly mutations: number;
  /** Card states sampled every 500 ms: "completed tools" summed over cards, to show progress. */
  readonly progressSamples: readonly string[];
}

export interface CardsSeen {
  readonly cards: readonly { readonly label: string; readonly status: string; readonly progress: string }[];
  readonly finalText: boolean;
  readonly sessionStatus: string;
}

type ProbeWindow = Window & { __probe?: { stop(): ProbeResult } };

/** Starts the observers; `stopProbe` disconnects them and returns what they saw. */
export function startProbe(): void {
  const longTasks: number[] = [];
  const longFrames: { duration: number; blocking: number }[] = [];
  const progressSamples: string[] = [];
  let mutations = 0;
  const loafSupported = PerformanceObserver.supportedEntryTypes.includes("long-animation-frame");
  const tasks = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push(e.duration);
  });
  tasks.observe({ type: "longtask" });
  const frames = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longFrames.push({ duration: e.duration, blocking: (e as PerformanceEntry & { blockingDuration: number }).blockingDuration });
  });
  if (loafSupported) frames.observe({ type: "long-animation-frame" });
  const transcript = document.querySelector("[role=region][aria-label=Transcript]") ?? document.body;
  const dom = new MutationObserver((records) => (mutations += records.length));
  dom.observe(transcript, { subtree: true, childList: true, characterData: true, attributes: true });
  const sample = setInterval(() => {
    const texts = [...document.querySelectorAll('article[aria-label^="Subagent "] .progress-text')].map((e) => e.textContent ?? "");
    progressSamples.push(texts.slice(0, 2).join(" | "));
  }, 500);
  (window as ProbeWindow).__probe = {
    stop() {
      clearInterval(sample);
      tasks.disconnect();
      frames.disconnect();
      dom.disconnect();
      return { longTasks, longFrames, loafSupported, mutations, progressSamples };
    },
  };
}

export function stopProbe(): ProbeResult {
  const probe = (window as ProbeWindow).__probe;
  if (probe === undefined) throw new Error("the page probe was not started");
  return probe.stop();
}

export function cardsSeen(finalText: string): CardsSeen {
  const cards = [...document.querySelectorAll<HTMLElement>('article[aria-label^="Subagent "]')].map((card) => ({
    label: card.getAttribute("aria-label") ?? "",
    status: card.dataset["status"] ?? "",
    progress: card.querySelector(".progress-text")?.textContent ?? "",
  }));
  return {
    cards,
    finalText: (document.body.textContent ?? "").includes(finalText),
    sessionStatus: document.querySelector("[aria-label='Session status']")?.textContent ?? "",
  };
}
