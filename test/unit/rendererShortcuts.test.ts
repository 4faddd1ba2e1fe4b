// Key chords and the command registry: what a key runs, where, and how the sheet writes it.
import { afterEach, describe, expect, it } from "vitest";
import { chordLabel, chordMatches, parseChord, type KeyLike } from "../../src/renderer/keys/chords.js";
import { commandForKey } from "../../src/renderer/keys/shortcuts.js";
import { allCommands, registerCommands, type CommandSpec } from "../../src/renderer/palette/commands.js";

const key = (k: string, code: string, mods: Partial<Omit<KeyLike, "key" | "code">> = {}): KeyLike => ({
  key: k,
  code,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...mods,
});

describe("key chords", () => {
  it("parses modifiers in any case and refuses a chord without a key or with an unknown modifier", () => {
    expect(parseChord("Mod+Shift+K")).toEqual({ key: "k", mod: true, shift: true, alt: false });
    expect(parseChord("?")).toEqual({ key: "?", mod: false, shift: false, alt: false });
    expect(parseChord("Mod++")).toEqual({ key: "+", mod: true, shift: false, alt: false });
    expect(parseChord("Escape")).toEqual({ key: "Escape", mod: false, shift: false, alt: false });
    expect(() => parseChord("Mod+")).toThrow(/Not a key chord/);
    expect(() => parseChord("Hyper+K")).toThrow(/Not a key chord/);
  });

  it("Mod is Ctrl elsewhere and Cmd on a Mac, never both", () => {
    const modK = parseChord("Mod+K");
    expect(chordMatches(modK, key("k", "KeyK", { ctrlKey: true }), false)).toBe(true);
    expect(chordMatches(modK, key("k", "KeyK", { metaKey: true }), false)).toBe(false);
    expect(chordMatches(modK, key("k", "KeyK", { metaKey: true }), true)).toBe(true);
    expect(chordMatches(modK, key("k", "KeyK", { ctrlKey: true }), true)).toBe(false);
    expect(chordMatches(modK, key("k", "KeyK", { ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(chordMatches(modK, key("k", "KeyK"), false)).toBe(false);
    // A layout without Latin letters: by the key's place.
    expect(chordMatches(modK, key("л", "KeyK", { ctrlKey: true }), false)).toBe(true);
  });

  it("a digit matches by its character or its place (AZERTY types digits with Shift)", () => {
    const mod2 = parseChord("Mod+2");
    expect(chordMatches(mod2, key("2", "Digit2", { ctrlKey: true }), false)).toBe(true);
    expect(chordMatches(mod2, key("é", "Digit2", { ctrlKey: true }), false)).toBe(true);
    expect(chordMatches(mod2, key("2", "Numpad2", { ctrlKey: true }), false)).toBe(true);
    expect(chordMatches(mod2, key("3", "Digit3", { ctrlKey: true }), false)).toBe(false);
    expect(chordMatches(mod2, key("2", "Digit2"), false)).toBe(false);
  });

  it("a printable character is whatever Shift and the layout make it; a named key minds Shift", () => {
    expect(chordMatches(parseChord("?"), key("?", "Slash", { shiftKey: true }), false)).toBe(true);
    expect(chordMatches(parseChord("?"), key("/", "Slash"), false)).toBe(false);
    expect(chordMatches(parseChord("?"), key("?", "Slash", { ctrlKey: true, shiftKey: true }), false)).toBe(false);
    expect(chordMatches(parseChord("Escape"), key("Escape", "Escape"), false)).toBe(true);
    expect(chordMatches(parseChord("Escape"), key("Escape", "Escape", { shiftKey: true }), false)).toBe(false);
  });

  it("writes chords for each platform", () => {
    expect(chordLabel(parseChord("Mod+K"), false)).toBe("Ctrl+K");
    expect(chordLabel(parseChord("Mod+Shift+K"), false)).toBe("Ctrl+Shift+K");
    expect(chordLabel(parseChord("Mod+Shift+K"), true)).toBe("⇧⌘K");
    expect(chordLabel(parseChord("Escape"), false)).toBe("Esc");
    expect(chordLabel(parseChord("ArrowUp"), true)).toBe("↑");
    expect(chordLabel(parseChord("?"), false)).toBe("?");
  });
});

describe("the command registry and the keys that run it", () => {
  let undo: (() => void)[] = [];
  afterEach(() => {
    for (const u of undo.reverse()) u();
    undo = [];
  });
  const add = (specs: CommandSpec[]): void => void undo.push(registerCommands(specs));
  const ran: string[] = [];
  const spec = (id: string, keys?: string, enabled?: () => boolean): CommandSpec => ({ id, title: id, group: "Window", ...(keys !== undefined ? { keys } : {}), ...(enabled !== undefined ? { enabled } : {}), run: () => void ran.push(id) });

  it("runs a Mod chord while typing, a plain one only outside a text field", () => {
    add([spec("palette", "Mod+K"), spec("help", "?")]);
    const commands = allCommands();
    expect(commandForKey(key("k", "KeyK", { ctrlKey: true }), commands, false, true)?.id).toBe("palette");
    expect(commandForKey(key("?", "Slash", { shiftKey: true }), commands, false, false)?.id).toBe("help");
    expect(commandForKey(key("?", "Slash", { shiftKey: true }), commands, false, true)).toBeUndefined();
    expect(commandForKey(key("j", "KeyJ", { ctrlKey: true }), commands, false, false)).toBeUndefined();
  });

  it("a command that cannot run now leaves its key alone", () => {
    let running = false;
    add([spec("interrupt", "Escape", () => running)]);
    expect(commandForKey(key("Escape", "Escape"), allCommands(), false, false)).toBeUndefined();
    running = true;
    expect(commandForKey(key("Escape", "Escape"), allCommands(), false, false)?.id).toBe("interrupt");
  });

  it("a later registration of an id stands in for the earlier one until it is removed; a bad chord fails where it is registered", () => {
    add([spec("a"), spec("b")]);
    const replace = registerCommands([{ ...spec("a"), title: "A again" }]);
    expect(allCommands().map((c) => [c.id, c.title])).toEqual([["a", "A again"], ["b", "b"]]);
    replace();
    expect(allCommands().map((c) => [c.id, c.title])).toEqual([["a", "a"], ["b", "b"]]);
    expect(() => registerCommands([spec("bad", "Mod+")])).toThrow(/Not a key chord/);
    expect(allCommands().map((c) => c.id)).toEqual(["a", "b"]);
  });
});
