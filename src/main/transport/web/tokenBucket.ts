// A token bucket: up to `burst` actions at once, then one more every `refillMs`. The clock is
// injected so a test can move time without waiting. Pure.

export interface TokenBucketOptions {
  readonly burst: number;
  readonly refillMs: number;
  /** Milliseconds, monotonic enough for rate limiting. Default Date.now. */
  readonly now?: () => number;
}

export interface TokenBucket {
  /** Takes a token if one is left; says whether it did. */
  take(): boolean;
  /** Milliseconds until the next token, 0 if one is there. */
  waitMs(): number;
}

export function createTokenBucket(options: TokenBucketOptions): TokenBucket {
  const { burst, refillMs, now = Date.now } = options;
  let tokens = burst;
  let at = now();
  const refill = () => {
    const t = now();
    // A clock that goes back (system time changed) refills nothing, rather than everything.
    if (t > at) {
      tokens = Math.min(burst, tokens + (t - at) / refillMs);
      at = t;
    }
  };
  return {
    take() {
      refill();
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
    waitMs() {
      refill();
      return tokens >= 1 ? 0 : Math.ceil((1 - tokens) * refillMs);
    },
  };
}
