// The scripted model server over plain HTTP: SSE framing, who-is-asking detection, side requests,
// scripted errors and lifetimes.

import { afterEach, describe, expect, it } from "vitest";
import {
  startModelServer,
  WaitForRequestTimeoutError,
  type ModelServer,
  type Script,
} from "../support/modelServer.js";

let server: ModelServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(script: Script): Promise<ModelServer> {
  server = await startModelServer(script);
  return server;
}

type Message = { role: string; content: unknown };

const TOOLS = [{ name: "Bash", description: "run", input_schema: { type: "object" } }];

function post(s: ModelServer, body: Record<string, unknown>, path = "/v1/messages?beta=true"): Promise<Response> {
  return fetch(s.url + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function agentBody(messages: Message[], extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: "claude-test-model", max_tokens: 1000, tools: TOOLS, messages, ...extra };
}

interface Frame {
  readonly event: string;
  readonly data: Record<string, any>;
}

function parseSse(text: string): Frame[] {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const lines = chunk.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))?.slice(7) ?? "";
      const data = lines.find((l) => l.startsWith("data: "))?.slice(6) ?? "null";
      return { event, data: JSON.parse(data) as Record<string, any> };
    });
}

async function jsonReply(res: Response): Promise<Record<string, any>> {
  expect(res.headers.get("content-type")).toContain("application/json");
  return (await res.json()) as Record<string, any>;
}

function textOf(reply: Record<string, any>): string {
  return (reply["content"] as { type: string; text?: string }[]).map((b) => b.text ?? "").join("");
}

describe("streaming replies", () => {
  it("frames a thinking, text and tool_use turn as Messages API SSE", async () => {
    const s = await start({
      main: [
        {
          blocks: [
            { type: "thinking", thinking: "Let me think about this carefully." },
            { type: "text", text: "I will run a command now." },
            { type: "tool_use", name: "Bash", input: { command: "echo hi", description: "Say hi" } },
          ],
        },
      ],
    });
    const res = await post(s, agentBody([{ role: "user", content: "go" }], { stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const frames = parseSse(await res.text());

    for (const f of frames) expect(f.data["type"]).toBe(f.event);
    expect(frames[0]?.event).toBe("message_start");
    expect(frames[0]?.data["message"]).toMatchObject({ id: "msg_main_t0_r1", model: "claude-test-model", content: [] });
    expect(frames.slice(-2).map((f) => f.event)).toEqual(["message_delta", "message_stop"]);
    expect(frames.at(-2)?.data["delta"]["stop_reason"]).toBe("tool_use");
    expect(frames.at(-2)?.data["usage"]["output_tokens"]).toBeGreaterThan(1);

    const starts = frames.filter((f) => f.event === "content_block_start").map((f) => f.data["content_block"]);
    expect(starts.map((b) => b.type)).toEqual(["thinking", "text", "tool_use"]);
    expect(starts[2]).toMatchObject({ id: "toolu_main_t0_2", name: "Bash", input: {} });

    const deltasOf = (index: number): Record<string, string>[] =>
      frames.filter((f) => f.event === "content_block_delta" && f.data["index"] === index).map((f) => f.data["delta"]);
    expect(deltasOf(0).filter((d) => d["type"] === "thinking_delta").map((d) => d["thinking"]).join("")).toBe(
      "Let me think about this carefully.",
    );
    expect(deltasOf(0).at(-1)?.["type"]).toBe("signature_delta");
    expect(deltasOf(1).length).toBeGreaterThan(1);
    expect(deltasOf(1).map((d) => d["text"]).join("")).toBe("I will run a command now.");
    const json = deltasOf(2).map((d) => d["partial_json"]).join("");
    expect(deltasOf(2).length).toBeGreaterThan(1);
    expect(JSON.parse(json)).toEqual({ command: "echo hi", description: "Say hi" });
    const stops = frames.filter((f) => f.event === "content_block_stop").map((f) => f.data["index"]);
    expect(stops).toEqual([0, 1, 2]);
  });

  it("answers a non-streaming request with a whole JSON message", async () => {
    const s = await start({ main: [{ blocks: [{ type: "text", text: "Plain answer." }] }] });
    const reply = await jsonReply(await post(s, agentBody([{ role: "user", content: "hi" }])));
    expect(reply).toMatchObject({
      id: "msg_main_t0_r1",
      type: "message",
      role: "assistant",
      stop_reason: "end_turn",
      content: [{ type: "text", text: "Plain answer." }],
    });
    expect(reply["usage"]["input_tokens"]).toBe(100);
  });

  it("uses a scripted stop reason and tool id", async () => {
    const s = await start({
      main: [{ stopReason: "max_tokens", blocks: [{ type: "tool_use", id: "toolu_custom", name: "Bash", input: {} }] }],
    });
    const reply = await jsonReply(await post(s, agentBody([{ role: "user", content: "hi" }])));
    expect(reply["stop_reason"]).toBe("max_tokens");
    expect(reply["content"][0]["id"]).toBe("toolu_custom");
  });

  it("never serves a tool_use id twice, and works a reply out from the request when the script asks", async () => {
    // A resumed agent's request can repeat a turn it already had (its earlier answers left out).
    const s = await start({
      main: [{ blocks: (request) => [{ type: "tool_use", name: "Bash", input: { command: `echo ${JSON.stringify(request["messages"]).length}` } }] }],
    });
    const first = await jsonReply(await post(s, agentBody([{ role: "user", content: "hi" }])));
    const again = await jsonReply(await post(s, agentBody([{ role: "user", content: "hi again" }])));
    expect(first["content"][0]["id"]).toBe("toolu_main_t0_0");
    expect(again["content"][0]["id"]).toBe("toolu_main_t0_0_r2");
    expect(again["content"][0]["input"]).toEqual({ command: `echo ${JSON.stringify([{ role: "user", content: "hi again" }]).length}` });
  });
});

describe("who is asking", () => {
  const script: Script = {
    main: [{ blocks: [{ type: "text", text: "main 0" }] }, { blocks: [{ type: "text", text: "main 1" }] }],
    "SUB-A": [{ blocks: [{ type: "text", text: "sub 0" }] }, { blocks: [{ type: "text", text: "sub 1" }] }],
  };

  it("finds the marker in the first user message despite system entries and reminders", async () => {
    const s = await start(script);
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "<system-reminder>\ncontext\n</system-reminder>\n" },
          { type: "text", text: "[[SUB-A]] run echo hello" },
        ],
      },
      { role: "system", content: "Available agent types for the Agent tool: …" },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Bash", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "hello" }] },
      { role: "system", content: "more system text" },
    ];
    const reply = await jsonReply(await post(s, agentBody(messages)));
    expect(textOf(reply)).toBe("sub 1");
    expect(s.requests[0]).toMatchObject({ agent: "SUB-A", turn: 1, kind: "agent", outcome: "served" });
  });

  it("treats string content without a marker as the main agent", async () => {
    const s = await start(script);
    const messages: Message[] = [
      { role: "user", content: "please help" },
      { role: "assistant", content: "sure" },
      { role: "user", content: "again" },
    ];
    expect(textOf(await jsonReply(await post(s, agentBody(messages))))).toBe("main 1");
    expect(s.requests[0]).toMatchObject({ agent: "main", turn: 1 });
  });

  it("ignores markers inside system reminders", async () => {
    const s = await start(script);
    const content = [
      { type: "text", text: "<system-reminder>an agent called [[SUB-A]] exists</system-reminder>" },
      { type: "text", text: "do it yourself" },
    ];
    const reply = await jsonReply(await post(s, agentBody([{ role: "user", content }])));
    expect(textOf(reply)).toBe("main 0");
  });

  it("answers an unscripted turn with a short end_turn text and flags it", async () => {
    const s = await start(script);
    const messages: Message[] = [
      { role: "user", content: "[[SUB-A]] x" },
      { role: "assistant", content: "a" },
      { role: "user", content: "b" },
      { role: "assistant", content: "c" },
      { role: "user", content: "d" },
    ];
    const reply = await jsonReply(await post(s, agentBody(messages)));
    expect(textOf(reply)).toBe("(no scripted turn)");
    expect(reply["stop_reason"]).toBe("end_turn");
    expect(s.requests[0]).toMatchObject({ agent: "SUB-A", turn: 2, unscripted: true });
  });

  it("replaces the script with setScript", async () => {
    const s = await start(script);
    s.setScript({ main: [{ blocks: [{ type: "text", text: "new script" }] }] });
    const reply = await jsonReply(await post(s, agentBody([{ role: "user", content: "hi" }])));
    expect(textOf(reply)).toBe("new script");
  });
});

describe("side requests", () => {
  it("answers a title request (no tools) with a JSON title", async () => {
    const s = await start({});
    const body = {
      model: "m",
      max_tokens: 100,
      system: [{ type: "text", text: "Generate a concise, sentence-case title (3-7 words) for this session." }],
      messages: [{ role: "user", content: [{ type: "text", text: "<session>\nfix it\n</session>" }] }],
      stream: true,
    };
    const frames = parseSse(await (await post(s, body)).text());
    const text = frames
      .filter((f) => f.data["delta"]?.["type"] === "text_delta")
      .map((f) => f.data["delta"]["text"])
      .join("");
    expect(JSON.parse(text)).toEqual({ title: "Scripted session title" });
    expect(s.requests[0]).toMatchObject({ kind: "side", side: "title", agent: "side:title" });
  });

  it("answers a suggestion request that carries tools without using the main script", async () => {
    const s = await start({ main: [{ blocks: [{ type: "text", text: "main 0" }] }] });
    const messages: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "hello" },
      { role: "user", content: "[SUGGESTION MODE: Suggest what the user might naturally type next]" },
    ];
    expect(textOf(await jsonReply(await post(s, agentBody(messages))))).toBe("run the tests");
    expect(s.requests[0]).toMatchObject({ kind: "side", side: "suggestion", fromAgent: "main" });
  });

  it("answers a compaction request that carries tools with a summary", async () => {
    const s = await start({ main: [{ blocks: [{ type: "text", text: "main 0" }] }] });
    const messages: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "second\n" },
          { type: "text", text: "Your task is to create a detailed summary of the conversation so far." },
        ],
      },
    ];
    const text = textOf(await jsonReply(await post(s, agentBody(messages))));
    expect(text).toContain("<summary>");
    expect(s.requests[0]).toMatchObject({ kind: "side", side: "compact" });
  });

  it("lets a script override a side answer", async () => {
    const s = await start({ "side:suggestion": [{ blocks: [{ type: "text", text: "commit it" }] }] });
    const messages: Message[] = [{ role: "user", content: "[SUGGESTION MODE: next]" }];
    expect(textOf(await jsonReply(await post(s, agentBody(messages))))).toBe("commit it");
  });

  it("counts tokens", async () => {
    const s = await start({});
    const reply = await jsonReply(await post(s, agentBody([{ role: "user", content: "hi" }]), "/v1/messages/count_tokens"));
    expect(reply["input_tokens"]).toBeGreaterThan(0);
    expect(s.requests[0]).toMatchObject({ kind: "side", side: "count_tokens" });
  });

  it("answers HEAD / and unknown paths without hanging", async () => {
    const s = await start({});
    expect((await fetch(s.url + "/", { method: "HEAD" })).status).toBe(200);
    const missing = await fetch(s.url + "/v1/nothing");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
    expect(s.requests.map((r) => r.side)).toEqual(["preflight", "not_found"]);
  });

  it("rejects a body that is not JSON with a 400 error", async () => {
    const s = await start({});
    const res = await fetch(s.url + "/v1/messages", { method: "POST", body: "{nope" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });
});

describe("scripted errors", () => {
  it("fails `times` requests, then serves the turn", async () => {
    const s = await start({
      main: [{ error: { status: 529, times: 2 }, blocks: [{ type: "text", text: "finally" }] }],
    });
    const body = agentBody([{ role: "user", content: "hi" }]);
    const first = await post(s, body);
    expect(first.status).toBe(529);
    expect(await first.json()).toMatchObject({ type: "error", error: { type: "overloaded_error" } });
    expect((await post(s, body)).status).toBe(529);
    expect(textOf(await jsonReply(await post(s, body)))).toBe("finally");
    expect(s.requests.map((r) => r.outcome)).toEqual(["error", "error", "served"]);
  });

  it("fails forever without `times`, with the scripted type, message and headers", async () => {
    const s = await start({
      main: [{ error: { status: 400, type: "invalid_request_error", message: "bad thing", headers: { "x-test": "1" } } }],
    });
    const body = agentBody([{ role: "user", content: "hi" }]);
    for (let i = 0; i < 3; i++) {
      const res = await post(s, body);
      expect(res.status).toBe(400);
      expect(res.headers.get("x-test")).toBe("1");
      expect(await res.json()).toEqual({ type: "error", error: { type: "invalid_request_error", message: "bad thing" } });
    }
  });
});

describe("timing and lifetimes", () => {
  it("marks a delayed request aborted when the client leaves, and keeps serving", async () => {
    const s = await start({ main: [{ delayMs: 60_000, blocks: [{ type: "text", text: "late" }] }, { blocks: [] }] });
    const controller = new AbortController();
    const pending = fetch(s.url + "/v1/messages", {
      method: "POST",
      body: JSON.stringify(agentBody([{ role: "user", content: "hi" }])),
      signal: controller.signal,
    }).catch((e: unknown) => e);
    await s.waitForRequest((r) => r.agent === "main" && r.outcome === "pending");
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    const aborted = await s.waitForRequest((r) => r.outcome === "aborted", 5_000);
    expect(aborted.servedAt).toBeNull();

    const messages: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: "x" },
      { role: "user", content: "y" },
    ];
    expect((await post(s, agentBody(messages))).status).toBe(200);
  });

  it("holds a turn until its waitFor resolves, with the request and the projects folder it was told", async () => {
    let release = (): void => undefined;
    const seen: { said: string; projectsDir: string | undefined }[] = [];
    const s = await start({
      main: [
        {
          blocks: [{ type: "text", text: "after the state" }],
          waitFor: (request, cli) => {
            seen.push({ said: JSON.stringify(request["messages"]), projectsDir: cli.projectsDir });
            return new Promise<void>((resolve) => (release = resolve));
          },
        },
      ],
    });
    s.setProjectsDir("/tmp/home/.claude/projects");
    const reply = post(s, agentBody([{ role: "user", content: "go on when ready" }]));
    await s.waitForRequest((r) => r.agent === "main");
    await expect.poll(() => seen.length).toBe(1);
    expect(s.requests[0]?.outcome).toBe("pending");
    expect(seen[0]).toEqual({ said: expect.stringContaining("go on when ready"), projectsDir: "/tmp/home/.claude/projects" });
    release();
    expect(textOf(await jsonReply(await reply))).toBe("after the state");
  });

  it("stops waiting on a waitFor when the client leaves", async () => {
    let signal: AbortSignal | undefined;
    const s = await start({ main: [{ blocks: [], waitFor: (_request, cli) => ((signal = cli.signal), new Promise<void>(() => undefined)) }] });
    const controller = new AbortController();
    const pending = fetch(s.url + "/v1/messages", { method: "POST", body: JSON.stringify(agentBody([{ role: "user", content: "hi" }])), signal: controller.signal }).catch((e: unknown) => e);
    await s.waitForRequest((r) => r.agent === "main");
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await s.waitForRequest((r) => r.outcome === "aborted", 5_000);
    expect(signal?.aborted).toBe(true);
  });

  it("spaces streamed events by chunkDelayMs", async () => {
    const s = await start({ main: [{ chunkDelayMs: 30, blocks: [{ type: "text", text: "slow stream" }] }] });
    const res = await post(s, agentBody([{ role: "user", content: "hi" }], { stream: true }));
    const reader = res.body!.getReader();
    const arrivals: number[] = [];
    for (;;) {
      const { done } = await reader.read();
      if (done) break;
      arrivals.push(Date.now());
    }
    // Several separate chunks arrived, spread over time rather than in one write.
    expect(arrivals.length).toBeGreaterThan(3);
    expect(arrivals.at(-1)! - arrivals[0]!).toBeGreaterThanOrEqual(100);
  });

  it("close() ends a request that is still waiting and rejects pending waits", async () => {
    const s = await start({ main: [{ delayMs: 60_000, blocks: [] }] });
    const pending = post(s, agentBody([{ role: "user", content: "hi" }])).catch((e: unknown) => e);
    await s.waitForRequest((r) => r.kind === "agent");
    const never = expect(s.waitForRequest((r) => r.agent === "nobody")).rejects.toMatchObject({
      code: "MODEL_SERVER_CLOSED",
    });
    await s.close();
    server = undefined;
    expect(await pending).toBeInstanceOf(Error);
    await never;
  });

  it("times out a wait with the requests it saw", async () => {
    const s = await start({});
    await fetch(s.url + "/", { method: "HEAD" });
    const err = await s.waitForRequest((r) => r.agent === "nobody", 50).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitForRequestTimeoutError);
    expect((err as WaitForRequestTimeoutError).seen).toEqual(["#1 side:preflight/t0 served"]);
  });
});
