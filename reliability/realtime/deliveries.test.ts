import { describe, expect, it } from "vitest";
import { type SentEvent, sentEventsIn, tally, type Watcher } from "./deliveries.ts";

const watcher = (
  key: string | null,
  userId: string | null,
  received: Array<[string, string]>,
): Watcher => ({
  key,
  userId,
  received: received.map(([name, message]) => ({ name, message })),
  socket: undefined as unknown as Watcher["socket"],
  disconnects: 0,
});

const sent: SentEvent[] = [
  { process: 0, userId: "u1", kind: "launch_status", message: "Bundle submitted" },
  { process: 0, userId: "u1", kind: "launch_status", message: "SUCCESS launched" },
  { process: 0, userId: "u2", kind: "dispersal_status", message: "Received 0.036 BNB" },
];

describe("sentEventsIn", () => {
  it("reads the user events from a server's JSON log lines and skips everything else", () => {
    const output = [
      "Bundler is ready at http://127.0.0.1:3000",
      '{"level":20,"userEvent":"launch_status","userId":"u1","msg":"Bundle submitted"}',
      '{"level":40,"msg":"a warning"}',
      '{"level":20,"userEvent":"dispersal_status","userId":"u2","msg":"Received',
      '{"level":20,"userEvent":"dispersal_status","userId":"u2","msg":"Received 0.036 BNB"}',
    ].join("\n");
    expect(sentEventsIn(output)).toEqual([sent[0], sent[2]]);
  });
});

describe("tally", () => {
  it("counts every event a user was sent as delivered once each of its connections received it", () => {
    const result = tally(sent, [
      watcher("k1", "u1", [
        ["launch_status_k1", "Bundle submitted"],
        ["launch_status_k1", "SUCCESS launched"],
      ]),
      watcher("k1", "u1", [["launch_status_k1", "Bundle submitted"]]),
      watcher("k2", "u2", [["dispersal_status_k2", "Received 0.036 BNB"]]),
    ]);
    expect(result).toEqual({ expected: 5, delivered: 4, foreign: 0, unsent: 0, outOfOrder: 0 });
  });

  it("counts an event named for another key, or any user event on an anonymous connection, as foreign", () => {
    const result = tally(sent, [
      watcher("k2", "u2", [
        ["dispersal_status_k2", "Received 0.036 BNB"],
        ["launch_status_k1", "Bundle submitted"],
      ]),
      watcher(null, null, [["dispersal_status_k2", "Received 0.036 BNB"]]),
    ]);
    expect(result).toEqual({ expected: 1, delivered: 1, foreign: 2, unsent: 0, outOfOrder: 0 });
  });

  it("counts an own event received twice, or never sent, as unsent", () => {
    const result = tally(sent, [
      watcher("k2", "u2", [
        ["dispersal_status_k2", "Received 0.036 BNB"],
        ["dispersal_status_k2", "Received 0.036 BNB"],
        ["launch_status_k2", "made up"],
      ]),
    ]);
    expect(result).toEqual({ expected: 1, delivered: 1, foreign: 0, unsent: 2, outOfOrder: 0 });
  });

  it("counts a connection that heard one process's lines shuffled as out of order, but not lines of two processes interleaved", () => {
    const fromTwo: SentEvent[] = [
      { process: 0, userId: "u1", kind: "launch_status", message: "one" },
      { process: 0, userId: "u1", kind: "launch_status", message: "two" },
      { process: 1, userId: "u1", kind: "dispersal_status", message: "three" },
    ];
    const shuffled = watcher("k1", "u1", [
      ["launch_status_k1", "two"],
      ["launch_status_k1", "one"],
      ["dispersal_status_k1", "three"],
    ]);
    const interleaved = watcher("k1", "u1", [
      ["dispersal_status_k1", "three"],
      ["launch_status_k1", "one"],
      ["launch_status_k1", "two"],
    ]);
    expect(tally(fromTwo, [shuffled]).outOfOrder).toBe(1);
    expect(tally(fromTwo, [interleaved]).outOfOrder).toBe(0);
  });
});
