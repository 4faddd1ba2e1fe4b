// `files_rewound` (Baton's own event after a rewind, core/fileRewind.ts): the prompt rewound to
// carries the mark, the latest rewind's count; an id that is no prompt of the tab changes nothing.
import { describe, expect, it } from "vitest";
import { modelOf } from "../../src/main/hub/index.js";
import type { ClientEvent } from "../../src/shared/events.js";

const prompt = (uuid: string, text: string): ClientEvent => ({ kind: "user_prompt", uuid, parentToolUseId: null, text });
const rewound = (promptUuid: string, files: number, timestamp: string): ClientEvent => ({ kind: "files_rewound", promptUuid, files, timestamp });
const First = "11111111-0000-4000-8000-000000000001";
const Second = "11111111-0000-4000-8000-000000000002";

describe("files_rewound", () => {
  it("marks the prompt rewound to, with the latest rewind's count", () => {
    const model = modelOf([prompt(First, "one"), prompt(Second, "two"), rewound(Second, 3, "2026-12-06T10:00:00.000Z")]);
    expect(model.transcript().blocks.map((b) => b.rewound)).toEqual([undefined, { files: 3, at: "2026-12-06T10:00:00.000Z" }]);
    model.apply([rewound(Second, 1, "2026-12-06T11:00:00.000Z")]);
    expect(model.transcript().blocks[1]).toMatchObject({ kind: "user", text: "two", rewound: { files: 1, at: "2026-12-06T11:00:00.000Z" } });
  });

  it("an id that is no prompt of the tab changes nothing", () => {
    const model = modelOf([prompt(First, "one")]);
    const before = model.transcript();
    model.apply([rewound("11111111-0000-4000-8000-00000000000f", 2, "2026-12-06T10:00:00.000Z")]);
    expect(model.transcript().blocks).toEqual(before.blocks);
    expect(model.transcript().blocks[0]?.rewound).toBeUndefined();
  });
});
