// The prompt box. Enter sends, Shift+Enter is a newline, Esc interrupts, ↑ in an empty box recalls
// earlier prompts, "/" completes slash commands, pasted or dropped images are attached. The draft
// is saved per tab as you type and comes back with a reload, its pictures too (state/drafts.ts,
// state/draftImages.ts); a send that fails
// puts the prompt back in the box and says why.
import { useEffect, useMemo, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent } from "react";
import { useApp } from "../state/appState.js";
import { loadDraft, saveDraft } from "../state/drafts.js";
import { loadDraftImages, saveDraftImages } from "../state/draftImages.js";
import { handBack, taken, useUnsent } from "../state/unsent.js";
import { loadPromptHistory, pushPromptHistory } from "../state/persist.js";
import { interruptActive, sendOrResume } from "../actions.js";
import "./composer.css";

interface Image {
  readonly mediaType: string;
  readonly data: string;
}

function readImage(file: File): Promise<Image | undefined> {
  return new Promise((resolve) => {
    if (!file.type.startsWith("image/")) return resolve(undefined);
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve({ mediaType: file.type, data: url.slice(url.indexOf(",") + 1) });
    };
    reader.onerror = () => resolve(undefined);
    reader.readAsDataURL(file);
  });
}

export function Composer({ tabId }: { tabId: string }) {
  const tab = useApp((s) => s.tabs[tabId]);
  const sessionId = tab?.info.sessionId;
  // Saved again once the CLI names the session, so the draft is known to be this session's.
  const draftTab = useMemo(() => ({ tabId, ...(sessionId !== undefined ? { sessionId } : {}) }), [tabId, sessionId]);
  const [text, setText] = useState(() => loadDraft(localStorage, draftTab));
  const [images, setImages] = useState<Image[]>([]);
  // The pictures kept with the draft come back once read (IndexedDB answers later than localStorage).
  const [imagesRead, setImagesRead] = useState(false);
  const [historyIndex, setHistoryIndex] = useState(-1);
  const [pick, setPick] = useState(0);
  const [notSent, setNotSent] = useState<string | undefined>(undefined);
  const ref = useRef<HTMLTextAreaElement>(null);

  useEffect(() => saveDraft(localStorage, draftTab, text), [draftTab, text]);
  useEffect(() => {
    if (imagesRead) return;
    let live = true;
    void loadDraftImages(draftTab).then((kept) => {
      if (!live) return;
      if (kept.length > 0) setImages((now) => (now.length === 0 ? kept : now));
      setImagesRead(true);
    });
    return () => {
      live = false;
    };
  }, [draftTab, imagesRead]);
  // Not before they were read: the empty list of a fresh box would forget them.
  useEffect(() => {
    if (imagesRead) void saveDraftImages(draftTab, images);
  }, [draftTab, images, imagesRead]);
  // Nothing is lost: a prompt that was not sent comes back, before anything typed meanwhile.
  const unsent = useUnsent((s) => s[tabId]);
  useEffect(() => {
    if (unsent === undefined) return;
    taken(tabId);
    setText((now) => (now === "" ? unsent.text : `${unsent.text}\n${now}`));
    setImages((now) => [...unsent.images, ...now]);
    setNotSent(unsent.reason);
  }, [tabId, unsent]);

  const commands = tab?.sessionInfo?.slashCommands ?? [];
  const slash = /^\/(\S*)$/.exec(text);
  const matches = slash !== null ? commands.filter((c) => c.startsWith(slash[1]!)).slice(0, 8) : [];

  const send = async (): Promise<void> => {
    const prompt = text.trim();
    if ((prompt === "" && images.length === 0) || tab === undefined) return;
    pushPromptHistory(prompt);
    const typed = text;
    const attached = images;
    setText("");
    setImages([]);
    setHistoryIndex(-1);
    setNotSent(undefined);
    const failed = await sendOrResume(tab, { text: prompt, images });
    if (failed !== undefined) handBack(tabId, { text: typed, images: attached, reason: failed });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (matches.length > 0 && (e.key === "Tab" || (e.key === "Enter" && !e.shiftKey))) {
      e.preventDefault();
      setText(`/${matches[Math.min(pick, matches.length - 1)]!} `);
      setPick(0);
      return;
    }
    if (matches.length > 0 && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      e.preventDefault();
      setPick((p) => (p + (e.key === "ArrowDown" ? 1 : matches.length - 1)) % matches.length);
      return;
    }
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void send();
    } else if (e.key === "Escape") {
      e.preventDefault();
      interruptActive();
    } else if (e.key === "ArrowUp" && (text === "" || historyIndex >= 0)) {
      const history = loadPromptHistory();
      const next = historyIndex < 0 ? history.length - 1 : historyIndex - 1;
      if (next >= 0 && history[next] !== undefined) {
        e.preventDefault();
        setHistoryIndex(next);
        setText(history[next]);
      }
    }
  };

  const addFiles = async (files: FileList | File[]): Promise<void> => {
    const read = await Promise.all([...files].map(readImage));
    const ok = read.filter((x): x is Image => x !== undefined);
    if (ok.length > 0) setImages((list) => [...list, ...ok]);
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>): void => {
    const files = [...e.clipboardData.files].filter((f) => f.type.startsWith("image/"));
    if (files.length === 0) return;
    e.preventDefault();
    void addFiles(files);
  };
  const onDrop = (e: DragEvent<HTMLDivElement>): void => {
    if (e.dataTransfer.files.length === 0) return;
    e.preventDefault();
    void addFiles(e.dataTransfer.files);
  };

  const restored = useApp((s) => s.tabs[tabId]?.info.kind === "restored" || (s.restored[tabId] === true && s.tabs[tabId]?.info.live !== true));
  // A session running in a terminal takes its prompts there; one sent here resumes a second copy in Baton.
  const inTerminal = useApp((s) => s.tabs[tabId]?.info.terminal !== undefined);
  return (
    <div className="composer" onDrop={onDrop} onDragOver={(e) => e.preventDefault()}>
      {images.length > 0 ? (
        <div className="attachments">
          {images.map((img, i) => (
            <button key={i} className="thumb-btn" aria-label={`Remove image ${i + 1}`} onClick={() => setImages((l) => l.filter((_, j) => j !== i))}>
              <img className="thumb" alt="" src={`data:${img.mediaType};base64,${img.data}`} />
            </button>
          ))}
        </div>
      ) : null}
      {matches.length > 0 ? (
        <ul className="slash" role="listbox" aria-label="Slash commands">
          {matches.map((c, i) => (
            <li key={c} role="option" aria-selected={i === pick} onMouseDown={(e) => { e.preventDefault(); setText(`/${c} `); ref.current?.focus(); }}>
              /{c}
            </li>
          ))}
        </ul>
      ) : null}
      {notSent !== undefined ? (
        <p className="composer-error" role="alert">
          Not sent: {notSent}. The prompt is back in the box.
        </p>
      ) : null}
      <textarea
        ref={ref}
        aria-label="Prompt"
        placeholder={inTerminal ? "This session runs in a terminal: type there (sending here resumes a copy in Baton)…" : restored ? "Continue this session (resumes it)…" : "Ask Claude…  (Enter to send, Shift+Enter for a newline, Esc to interrupt)"}
        value={text}
        rows={Math.min(8, Math.max(2, text.split("\n").length))}
        onChange={(e) => {
          setText(e.target.value);
          setHistoryIndex(-1);
          setPick(0);
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
    </div>
  );
}
