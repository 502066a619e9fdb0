import { type Address, erc20Abi, parseEther } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { crashServer } from "../../apps/server/src/test/crash-server.ts";
import { draftInput } from "../../apps/server/src/test/drafts-api.ts";
import { prepareAutosell } from "./autosell-work.ts";
import type { Ledger } from "./ledger.ts";

/** What a trial's own checks found beyond the ledger. */
export interface Findings {
  /** Payments or claims credited more than once (a destination paid more than asked). */
  doubleCredits: number;
  /** Planned legs sent more than once. */
  repeated: number;
  /** Planned legs that never arrived, or arrived short. */
  missing: number;
  /** Auto-sell: a wallet's sales (or a rule's firings) beyond the one the rule asked for. */
  doubleSales?: number;
  /** Auto-sell: a rule whose trigger was met that never fired, or whose firing sold nothing. */
  missedFirings?: number;
  notes: string[];
}

export type Server = ReturnType<typeof crashServer>;
export type Kind =
  | "launch"
  | "fee payment"
  | "dispersal"
  | "sell"
  | "bump"
  | "claim payout"
  | "auto-sell firing";
export const KINDS: readonly Kind[] = [
  "launch",
  "fee payment",
  "dispersal",
  "sell",
  "bump",
  "claim payout",
  "auto-sell firing",
];

export const FEE = parseEther("0.01");

/**
 * One piece of work, as a user starts it through the API: `prepare` readies what it needs
 * (outside the books), `declared` names every address it may move money between, `start` sends
 * the request the crash may interrupt (sent again after the restart when it got no answer, as a
 * client retries), `finished` says the work is done, and `check` counts double credits and
 * repeated legs beyond the ledger's own.
 */
export interface Work {
  declared: string[];
  /** Failpoints this work passes (one may be armed to kill the server in the middle). */
  failpoints: string[];
  start(): Promise<{ status: number; body?: unknown }>;
  finished(): Promise<boolean>;
  /** Where the work stands, for the log of a trial that did not finish. */
  state?(): Promise<string>;
  /** Addresses known only once the work ran (listed by the API). */
  declaredAfter(): Promise<string[]>;
  check(ledger: Ledger): Promise<Findings>;
}

const fresh = () => privateKeyToAccount(generatePrivateKey()).address;
const ok: Findings = { doubleCredits: 0, repeated: 0, missing: 0, notes: [] };

/**
 * What the trials of a run share: a token launched by a launch trial, whose wallets sell (one
 * by the sell trial, one by the auto-sell trial).
 */
export interface Shared {
  token?: Address;
  holders?: Address[];
  referrals: number;
  referralCode?: string;
}

const draftOf = async (server: Server, id: string) =>
  (await server.api("GET", `/api/draft/${id}`)).body.draft as {
    status: string;
    launch?: { tokenAddress?: string } | null;
    refunds: unknown[];
  };

/** A draft with its fee paid (and swept), its wallets funded. */
const paidDraft = async (server: Server, wallets: number) => {
  const input = draftInput(wallets);
  const id = (await server.api("POST", "/api/draft/create", input)).body.draftId as string;
  const address = (await server.api("POST", `/api/draft/${id}/payment`)).body
    .paymentAddress as Address;
  return { input, id, address };
};

const swept = async (server: Server, address: Address) =>
  (await server.client().getTransactionCount({ address })) >= 1;

export const prepare = async (
  kind: Kind,
  server: Server,
  shared: Shared,
  treasury: Address,
): Promise<Work> => {
  const { api, client } = server;
  switch (kind) {
    case "launch": {
      const { input, id, address } = await paidDraft(server, 2);
      await server.pay(address, FEE);
      await server.waitFor(async () => (await draftOf(server, id)).status === "paid", "fee");
      await server.waitFor(() => swept(server, address), "the fee swept");
      await server.setBalance(input.deployerWallet.address, parseEther("1"));
      for (const w of input.walletConfig.wallets)
        await server.setBalance(w.address, parseEther("0.2"));
      const holders = input.walletConfig.wallets.map((w) => w.address);
      let relaunches = 0;
      return {
        declared: [input.deployerWallet.address, ...holders, treasury],
        failpoints: ["launch.claimed", "launch.recorded", "launch.landed"],
        start: () => api("POST", `/api/draft/${id}/execute`),
        // A launch the kill stopped before its bundle went out leaves the draft paid again:
        // the user launches it again, as the web app offers.
        finished: async () => {
          const status = (await draftOf(server, id)).status;
          if (status === "paid") {
            relaunches += 1;
            await api("POST", `/api/draft/${id}/execute`);
          }
          return status === "executed";
        },
        declaredAfter: async () => [],
        state: async () => JSON.stringify(await draftOf(server, id)).slice(0, 600),
        async check(ledger) {
          // A launch that did not finish leaves the last launched token to sell and bump.
          const token = (await draftOf(server, id)).launch?.tokenAddress as Address | undefined;
          if (token) {
            shared.token = token;
            shared.holders = holders;
          }
          // One token: every buying wallet bought once (its transactions all name one token).
          const buys = holders.map((h) => ledger.txs.filter((t) => t.from === h).length);
          return {
            ...ok,
            repeated: buys.reduce((a, n) => a + Math.max(0, n - 1), 0),
            notes: relaunches > 0 ? [`launched again by the user ${relaunches} time(s)`] : [],
          };
        },
      };
    }
    case "fee payment": {
      const { id, address } = await paidDraft(server, 1);
      const payer = privateKeyToAccount(generatePrivateKey());
      await server.setBalance(payer.address, parseEther("1"));
      // Signed before the kill: a payment the kill cut off is broadcast again, never paid twice.
      const payment = await server.signedPayment(address, FEE, payer);
      return {
        declared: [address, payer.address, treasury],
        failpoints: ["tx.recorded"],
        start: async () => {
          await payment.send();
          return { status: 200 };
        },
        finished: async () =>
          (await draftOf(server, id)).status === "paid" && (await swept(server, address)),
        declaredAfter: async () => [],
        async check(ledger) {
          const sweeps = ledger.txs.filter((t) => t.from === address).length;
          // The fee reaches the treasury once: it got the fee less one sweep's gas, no more.
          const credited = ledger.delta(treasury) > FEE ? 1 : 0;
          return {
            doubleCredits: credited + ((await draftOf(server, id)).refunds.length > 0 ? 1 : 0),
            repeated: Math.max(0, sweeps - 1),
            missing: sweeps === 0 ? 1 : 0,
            notes: [],
          };
        },
      };
    }
    case "dispersal": {
      const wallets = [fresh(), fresh(), fresh()];
      const amounts = ["0.011", "0.022", "0.033"];
      const created = (
        await api("POST", "/api/wallets/disperse", { wallets, amounts, antiBubblemaps: true })
      ).body as { receiver: Address; amount: string };
      const payer = privateKeyToAccount(generatePrivateKey());
      await server.setBalance(payer.address, parseEther("1"));
      const payment = await server.signedPayment(
        created.receiver,
        parseEther(created.amount),
        payer,
      );
      const status = async () =>
        (await api("GET", `/api/wallets/disperse/status?dispersalId=${created.receiver}`)).body
          .status as string;
      return {
        declared: [created.receiver, payer.address, ...wallets],
        failpoints: ["tx.recorded"],
        start: async () => {
          await payment.send();
          return { status: 200 };
        },
        finished: async () => (await status()) === "completed",
        declaredAfter: async () => [],
        async check(ledger) {
          let doubleCredits = 0;
          let repeated = 0;
          let missing = 0;
          const notes: string[] = [];
          wallets.forEach((w, i) => {
            const got = ledger.delta(w);
            const asked = parseEther(amounts[i] as string);
            if (got > asked) doubleCredits += 1;
            if (got < asked) missing += 1;
            if (got !== asked) notes.push(`${w} got ${got} wei of ${asked}`);
            const legs = ledger.txs.filter((t) => t.to === w).length;
            repeated += Math.max(0, legs - 1);
          });
          return { doubleCredits, repeated, missing, notes };
        },
      };
    }
    case "sell": {
      const token = shared.token;
      const holders = shared.holders;
      if (!token || !holders) throw new Error("a sell trial needs a launch trial before it");
      const wallet = holders.shift() as Address;
      const sell = () => {
        askedAt = Date.now();
        return api("POST", "/api/bundle/wallets/sell", {
          address: token,
          wallets: [wallet],
          amount: "100",
          isPercentage: true,
        });
      };
      let askedAt = 0;
      return {
        declared: [wallet, treasury],
        failpoints: ["tx.recorded"],
        start: sell,
        finished: async () => {
          const held = await client().readContract({
            address: token,
            abi: erc20Abi,
            functionName: "balanceOf",
            args: [wallet],
          });
          const mined = await client().getTransactionCount({ address: wallet });
          const sent = await client().getTransactionCount({ address: wallet, blockTag: "pending" });
          const done = held === 0n && mined === sent;
          // A sale whose bundle did not land (a kill after it was recorded and before it was
          // sent, answered again to the retry as a double click; a window that passed on a
          // loaded machine) is not sent again by the server: sells are not jobs, the user sees
          // it fail and asks again. So does the trial, 30 s after its last ask.
          if (!done && Date.now() - askedAt > 30_000) await sell().catch(() => undefined);
          return done;
        },
        state: async () =>
          JSON.stringify({
            held: String(
              await client().readContract({
                address: token,
                abi: erc20Abi,
                functionName: "balanceOf",
                args: [wallet],
              }),
            ),
            lastAskedSecondsAgo: Math.round((Date.now() - askedAt) / 1000),
          }),
        declaredAfter: async () => [],
        async check(ledger) {
          const sells = ledger.txs.filter((t) => t.from === wallet && t.to === token).length;
          return { ...ok, repeated: Math.max(0, sells - 1) };
        },
      };
    }
    case "bump": {
      const token = shared.token;
      if (!token) throw new Error("a bump trial needs a launch trial before it");
      const generated = await api("POST", "/api/bumper/generate", {
        targetToken: token,
        interval: 1,
        duration: 2,
        buySize: 0.01,
      });
      const bumper = generated.body.bumper as { id: string; address: Address };
      if (!bumper) throw new Error(`bumper not generated: ${JSON.stringify(generated.body)}`);
      await server.setBalance(bumper.address, parseEther("0.1"));
      const shown = async () => (await api("GET", `/api/bumper/${bumper.id}`)).body;
      const listed = async () =>
        (
          (await api("GET", `/api/bumper/${bumper.id}/wallets`)).body.wallets as Array<{
            address: Address;
          }>
        ).map((w) => w.address);
      return {
        declared: [bumper.address, ...(await listed())],
        failpoints: ["bumper.recorded", "bumper.submitted", "tx.recorded"],
        start: () => api("POST", `/api/bumper/${bumper.id}/start`),
        finished: async () => ((await shown()).bumper as { status: string }).status === "completed",
        declaredAfter: listed,
        async check() {
          const body = await shown();
          const done = (body.bumper as { bumpsCompleted: number }).bumpsCompleted;
          const bumps = (body.bumps as unknown[]).length;
          return {
            ...ok,
            repeated: Math.max(0, bumps - 2) + Math.max(0, done - 2),
            missing: Math.max(0, 2 - done),
            notes: bumps === 2 ? [] : [`${bumps} bumps of 2`],
          };
        },
      };
    }
    case "auto-sell firing":
      return prepareAutosell(server, shared, treasury);
    case "claim payout": {
      // One code per user: the first claim trial creates it, each trial buys one more key with it.
      shared.referrals += 1;
      if (!shared.referralCode) {
        const created = `crash${Date.now() % 100000}`;
        const referrer = await api("POST", "/api/auth/referral/create", { code: created });
        if (referrer.status !== 200)
          throw new Error(`referral code: ${JSON.stringify(referrer.body)}`);
        shared.referralCode = created;
      }
      const code = shared.referralCode;
      const device = `device-${code}-${shared.referrals}`;
      const bought =
        // A referred visitor, not logged in: the code's owner may not use their own code.
        (
          await api(
            "POST",
            "/api/auth/payment",
            { deviceId: device, referralCode: code },
            { anonymous: true },
          )
        ).body as { paymentId: string; paymentAddress: Address; paymentAmount: string };
      await server.pay(bought.paymentAddress, parseEther(bought.paymentAmount));
      await server.waitFor(
        async () =>
          (
            await api(
              "GET",
              `/api/auth/payment/status?paymentId=${bought.paymentId}&deviceId=${device}`,
              undefined,
              { anonymous: true },
            )
          ).body.isPaid === true,
        "the key purchase credited",
      );
      await server.waitFor(() => swept(server, bought.paymentAddress), "the key payment swept");
      const info = async () => (await api("GET", "/api/auth/referral/info")).body;
      const claimable = (await info()).claimable as string;
      const receiver = fresh();
      const claim = await api("POST", "/api/auth/referral/claim", { receivingAddress: receiver });
      const claimId = (claim.body.claim as { id: string } | undefined)?.id;
      if (!claimId) throw new Error(`claim: ${JSON.stringify(claim.body)}`);
      const claimedBefore = parseEther((await info()).claimed as string);
      return {
        declared: [treasury, receiver],
        failpoints: ["claim.approved", "tx.recorded"],
        start: () => api("POST", `/api/admin/dashboard/claims/${claimId}/complete`),
        finished: async () =>
          (
            (await api("GET", "/api/auth/referral/claims")).body.claims as Array<{
              id: string;
              status: string;
            }>
          ).some((c) => c.id === claimId && c.status === "completed"),
        declaredAfter: async () => [],
        async check(ledger) {
          const asked = parseEther(claimable);
          const got = ledger.delta(receiver);
          const claimed = parseEther((await info()).claimed as string) - claimedBefore;
          const payouts = ledger.txs.filter((t) => t.to === receiver).length;
          return {
            doubleCredits: (got > asked ? 1 : 0) + (claimed > asked ? 1 : 0),
            repeated: Math.max(0, payouts - 1),
            missing: got < asked ? 1 : 0,
            notes: got === asked ? [] : [`receiver got ${got} wei of ${asked}`],
          };
        },
      };
    }
  }
};
