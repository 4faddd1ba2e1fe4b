// An immutable 32-way trie vector. The top-level transcript can hold tens of thousands of blocks;
// updating one (a subagent card deep inside) must copy O(log n) nodes, not the whole list.

type Node<T> = readonly (T | Node<T>)[];

const Bits = 5;
const Width = 1 << Bits;
const Mask = Width - 1;

export class PersistentVector<T> {
  static empty<T>(): PersistentVector<T> {
    return new PersistentVector<T>(0, 0, []);
  }

  private constructor(
    readonly size: number,
    private readonly shift: number,
    private readonly root: Node<T>,
  ) {}

  get(index: number): T | undefined {
    if (index < 0 || index >= this.size) return undefined;
    let node: Node<T> = this.root;
    for (let level = this.shift; level > 0; level -= Bits) node = node[(index >>> level) & Mask] as Node<T>;
    return node[index & Mask] as T;
  }

  set(index: number, value: T): PersistentVector<T> {
    if (index < 0 || index >= this.size) return this;
    return new PersistentVector(this.size, this.shift, setIn(this.root, this.shift, index, value));
  }

  push(value: T): PersistentVector<T> {
    const index = this.size;
    if (index === Width << this.shift) {
      // The trie is full: grow one level.
      const root: Node<T> = [this.root, newPath<T>(this.shift, value)];
      return new PersistentVector(index + 1, this.shift + Bits, root);
    }
    return new PersistentVector(index + 1, this.shift, pushIn(this.root, this.shift, index, value));
  }

  toArray(): T[] {
    const out: T[] = new Array<T>(this.size);
    let i = 0;
    const walk = (node: Node<T>, level: number): void => {
      if (level === 0) {
        for (const item of node) out[i++] = item as T;
        return;
      }
      for (const child of node) walk(child as Node<T>, level - Bits);
    };
    walk(this.root, this.shift);
    return out;
  }
}

function setIn<T>(node: Node<T>, level: number, index: number, value: T): Node<T> {
  const copy = node.slice();
  const slot = (index >>> level) & Mask;
  copy[slot] = level === 0 ? value : setIn(node[slot] as Node<T>, level - Bits, index, value);
  return copy;
}

function pushIn<T>(node: Node<T>, level: number, index: number, value: T): Node<T> {
  const copy = node.slice();
  const slot = (index >>> level) & Mask;
  if (level === 0) copy[slot] = value;
  else {
    const child = node[slot] as Node<T> | undefined;
    copy[slot] = child === undefined ? newPath(level - Bits, value) : pushIn(child, level - Bits, index, value);
  }
  return copy;
}

function newPath<T>(level: number, value: T): Node<T> {
  return level === 0 ? [value] : [newPath(level - Bits, value)];
}
