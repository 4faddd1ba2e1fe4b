// A map shared by every state of one lineage (a chain of states each reduced from the previous).
// Each write is tagged with the version that made it, so an older state still reads exactly what it
// saw. Only the newest state (the lineage head) writes; reducing an older state forks the lineage
// first (an O(n) copy). The common case, a live session reducing its latest state, is O(1).

interface Entry<V> {
  readonly version: number;
  value: V | undefined;
  readonly previous: Entry<V> | undefined;
}

export class VersionedMap<V> {
  private readonly entries = new Map<string, Entry<V>>();

  get(key: string, version: number): V | undefined {
    if (this.entries.size === 0) return undefined; // most side tables are empty most of the time
    let entry = this.entries.get(key);
    while (entry !== undefined && entry.version > version) entry = entry.previous;
    return entry?.value;
  }

  /** `undefined` deletes. Writes made in the same version overwrite each other. */
  set(key: string, value: V | undefined, version: number): void {
    const latest = this.entries.get(key);
    if (latest !== undefined && latest.version === version) latest.value = value;
    else if (latest !== undefined || value !== undefined) this.entries.set(key, { version, value, previous: latest });
  }

  /** A fresh map holding what `version` sees, as version 0. */
  snapshot(version: number): VersionedMap<V> {
    const copy = new VersionedMap<V>();
    for (const key of this.entries.keys()) {
      const value = this.get(key, version);
      if (value !== undefined) copy.entries.set(key, { version: 0, value, previous: undefined });
    }
    return copy;
  }
}
