import { randomUUID } from "node:crypto";
import { type OwnedObject, ROUTES, type RouteDef } from "@bundler/shared";
import { sql } from "drizzle-orm";
import fc from "fast-check";
import type { Address } from "viem";
import { launchBundle } from "../apps/server/src/test/bundles.ts";
import { apiCaller, draftInput, newWallet } from "../apps/server/src/test/drafts-api.ts";
import { rowCounts } from "../apps/server/src/test/row-counts.ts";
import { type ApiUnderTest, databasesOf, type RequestParts, send, startApi } from "./api/api.ts";
import { arbitraryOf } from "./api/arbitrary.ts";
import { type Figure, type Row, zero } from "./row.ts";

/** The first user's real objects, by the kind of id that names them. */
type Objects = Record<Exclude<OwnedObject, "transaction" | "claim">, string>;

interface Owner {
  id: string;
  key: string;
  deviceId: string;
  objects: Objects;
  /** Every address of the owner's that could send a transaction. */
  wallets: Address[];
}

const must = (answer: { status: number; body: Record<string, unknown> }, what: string) => {
  if (answer.status !== 200)
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
};

/**
 * The first user's objects, made the way the app makes them: a launched bundle (a draft saved
 * through the API, its token launched on the chain), a second draft with its launch fee payment
 * started, a dispersal, a bumper on the bundle's token, an auto-sell rule on the bundle, and a
 * paid-key payment from a device.
 */
const createOwner = async (api: ApiUnderTest): Promise<Owner> => {
  const key = api.keys.user;
  const id = (await api.app.auth.authenticate(key))?.id as string;
  const call = apiCaller(
    () => api.app,
    () => key,
  );
  const bundle = await launchBundle(api.app, api.testChain, key, { wallets: 2 });
  const draft = must(await call("POST", "/api/draft/create", draftInput(2)), "draft");
  const draftId = draft.draftId as string;
  must(await call("POST", `/api/draft/${draftId}/payment`), "fee payment");
  const dispersal = must(
    await call("POST", "/api/wallets/disperse", {
      wallets: [newWallet().address, newWallet().address],
      amounts: ["0.01", "0.02"],
    }),
    "dispersal",
  );
  const bumper = must(
    await call("POST", "/api/bumper/generate", {
      targetToken: bundle.token,
      interval: 1,
      duration: 3,
      buySize: 0.01,
    }),
    "bumper",
  );
  const rule = must(
    await call("POST", "/api/bundle/rules", {
      address: bundle.token,
      trigger: { any: [{ type: "stopLoss", pnlPercent: -50 }] },
      action: { percent: 100 },
    }),
    "auto-sell rule",
  );
  const deviceId = `owner-device-${randomUUID()}`;
  const payment = await api.app.server.inject({
    method: "POST",
    url: "/api/auth/payment",
    payload: { deviceId },
  });
  if (payment.statusCode !== 200) throw new Error(`key payment: ${payment.body}`);
  const owner = {
    id,
    key,
    deviceId,
    objects: {
      draft: draftId,
      keyPayment: (payment.json() as { paymentId: string }).paymentId,
      dispersal: dispersal.receiver as string,
      bundle: bundle.token,
      bumper: (bumper.bumper as { id: string }).id,
      rule: (rule.rule as { id: string }).id,
    },
    wallets: [bundle.deployer.address, ...bundle.wallets.map((wallet) => wallet.address)],
  };
  for (const [object, value] of Object.entries(owner.objects))
    if (typeof value !== "string" || !value) throw new Error(`the owner's ${object} has no id`);
  return owner;
};

/** The first sample of a schema the schema accepts (the fields' own kind of valid value). */
const validOf = (schema: RouteDef["body"], seed: number): unknown => {
  if (!schema) return undefined;
  const samples = fc.sample(arbitraryOf(schema), { numRuns: 300, seed });
  return samples.find((sample) => schema.safeParse(sample).success) ?? samples[0];
};

/**
 * A rule's body (create, edit, dry run): its nested unions and refinements are more than the
 * schema's arbitrary meets in a few hundred samples, so a stop loss selling everything.
 */
const RULE_BODY = {
  trigger: { any: [{ type: "stopLoss", pnlPercent: -50 }] },
  action: { percent: 100 },
};
/**
 * A draft's body (create, save): with a tax token's refinements (shares summing to 100, a
 * recipient when its share is over 0) the arbitrary met none in 300 samples, and the row sent an
 * invalid body that was answered 400 before the owner was looked at; so a tax token's draft.
 */
const DRAFT_BODY = {
  tokenInfo: {
    name: "Other Users",
    symbol: "OTHER",
    description: "a draft another user must not reach",
    tradingFee: "0.25",
    preSale: "0",
    tag: "Meme",
    tokenTaxInfo: {
      feeRate: 5,
      burnRate: 20,
      divideRate: 30,
      liquidityRate: 50,
      recipientRate: 0,
      recipientAddress: "",
      minSharing: 100000,
    },
  },
};
const bodyOf = (route: RouteDef, seed: number): unknown => {
  if (!route.body) return undefined;
  if (route.path.startsWith("/api/bundle/rules")) return RULE_BODY;
  if (route.path.startsWith("/api/draft") && route.body.safeParse(DRAFT_BODY).success)
    return DRAFT_BODY;
  return validOf(route.body, seed);
};

const withField = (part: unknown, field: string, value: unknown) => ({
  ...(part !== null && typeof part === "object" ? part : {}),
  [field]: value,
});

/**
 * A valid request for the route, from its schemas, with every owned field naming the owner's
 * object and the rest pointing at the owner too (the bundle's wallets) or at the caller.
 */
export const requestOn = (
  route: RouteDef,
  owner: Owner,
  seed: number,
  caller: "owner" | "other" = "other",
): RequestParts => {
  const parts: RequestParts = {
    params: validOf(route.params, seed),
    query: validOf(route.query, seed),
    body: route.method === "GET" ? undefined : bodyOf(route, seed),
  };
  const body = parts.body;
  if (body !== null && typeof body === "object") {
    if ("wallets" in body) parts.body = withField(parts.body, "wallets", owner.wallets.slice(1, 2));
    // Where money would go (contracts that check only its type): the caller's own address.
    for (const field of Object.keys(body))
      if (/^receiver/i.test(field)) parts.body = withField(parts.body, field, newWallet().address);
  }
  for (const { in: where, field, object } of route.owned ?? []) {
    if (object === "transaction" || object === "claim") continue;
    parts[where] = withField(parts[where], field, owner.objects[object]);
  }
  // A device's payment: the second "user" is another device.
  if (route.owned?.some((owned) => owned.object === "keyPayment")) {
    const where = route.method === "GET" ? "query" : "body";
    const deviceId = caller === "owner" ? owner.deviceId : `other-device-${randomUUID()}`;
    parts[where] = withField(parts[where], "deviceId", deviceId);
  }
  return parts;
};

/** What must not move: row counts, the owner's objects' states, the owner's wallets' nonces. */
const snapshot = async (api: ApiUnderTest, owner: Owner) => {
  const { rows } = await api.database.db.execute(sql`
    select 'draft' as kind, id::text, status from drafts where owner_id = ${owner.id}
    union all select 'payment', id::text, status from payments
      where owner_id = ${owner.id} or device_id = ${owner.deviceId}
    union all select 'dispersal', id::text, status from dispersals where owner_id = ${owner.id}
    union all select 'bumper', id::text, status from bumpers where owner_id = ${owner.id}
    union all select 'rule', id::text,
      state || ':' || md5(concat(trigger::text, action::text, execution::text))
      from autosell_rules where owner_id = ${owner.id}
    order by 1, 2`);
  const nonces = await Promise.all(
    owner.wallets.map((address) => api.testChain.chain.client.getTransactionCount({ address })),
  );
  return JSON.stringify({ counts: await rowCounts(api.database.db), rows, nonces });
};

export interface OtherUsersOutcome {
  calls: number;
  notFoundViolations: string[];
  /** The owner's own reads of the same objects that did not answer 200: the ids are real. */
  ownerReadFailures: string[];
  adminViolations: string[];
  superadminViolations: string[];
  noKeyViolations: string[];
  moved: string[];
}

export const otherUsers = async (
  postgresUrl: string | null,
  seed: number,
  log: (line: string) => void,
): Promise<OtherUsersOutcome> => {
  const outcome: OtherUsersOutcome = {
    calls: 0,
    notFoundViolations: [],
    ownerReadFailures: [],
    adminViolations: [],
    superadminViolations: [],
    noKeyViolations: [],
    moved: [],
  };
  const api = await startApi(postgresUrl);
  try {
    const owner = await createOwner(api);
    const secondUser = await api.app.auth.mintKey("user");
    // Let the launch's and the payments' own work settle before anything is compared.
    await api.app.transactions?.reconcile();
    const check = async (
      route: RouteDef,
      parts: RequestParts,
      key: string | undefined,
      expected: number,
      violations: string[],
    ) => {
      const before = await snapshot(api, owner);
      const response = await send(api.app, route, parts, key);
      outcome.calls++;
      const line = `${route.method} ${route.path} ${JSON.stringify(parts).slice(0, 200)}`;
      if (response.statusCode !== expected)
        violations.push(`${line}: ${response.statusCode} ${response.body.slice(0, 160)}`);
      if ((await snapshot(api, owner)) !== before) outcome.moved.push(line);
    };
    for (const [index, route] of ROUTES.entries()) {
      const parts = requestOn(route, owner, seed + index);
      if (route.owned?.length) {
        const key = route.access === "public" ? undefined : secondUser;
        await check(route, parts, key, 404, outcome.notFoundViolations);
        if (route.method === "GET") {
          const own = requestOn(route, owner, seed + index, "owner");
          const ownKey = route.access === "public" ? undefined : owner.key;
          const response = await send(api.app, route, own, ownKey);
          if (response.statusCode !== 200)
            outcome.ownerReadFailures.push(
              `${route.method} ${route.path}: ${response.statusCode} ${response.body.slice(0, 160)}`,
            );
        }
      }
      if (route.access === "admin" || route.access === "superadmin")
        await check(route, parts, secondUser, 403, outcome.adminViolations);
      if (route.access === "superadmin")
        await check(route, parts, api.keys.admin, 403, outcome.superadminViolations);
      if (route.access !== "public")
        await check(route, parts, undefined, 401, outcome.noKeyViolations);
    }
  } finally {
    await api.close();
  }
  for (const line of [
    ...outcome.notFoundViolations,
    ...outcome.ownerReadFailures.map((line) => `the owner's own read: ${line}`),
    ...outcome.adminViolations,
    ...outcome.superadminViolations,
    ...outcome.noKeyViolations,
    ...outcome.moved.map((line) => `moved: ${line}`),
  ].slice(0, 30))
    log(`other users: ${line}`);
  return outcome;
};

const SEED = 16_017;

/** The calls the table asks for: one per owned route, admin route (and superadmin route twice), key-only route. */
export const expectedCalls = (routes: readonly RouteDef[]): number =>
  routes.reduce(
    (sum, route) =>
      sum +
      (route.owned?.length ? 1 : 0) +
      (route.access === "admin" ? 1 : route.access === "superadmin" ? 2 : 0) +
      (route.access === "public" ? 0 : 1),
    0,
  );

export const otherUsersRow: Row = {
  name: "other users",
  what: "from ROUTES: every route taking an owned id or address called with a second user's key on the first user's real objects (404, nothing moved); admin routes with a user key (403); non-public routes without a key (401)",
  run: async ({ databaseUrl, log }) => {
    const figures: Figure[] = [];
    for (const { name, postgresUrl } of databasesOf(databaseUrl)) {
      const outcome = await otherUsers(postgresUrl, SEED, log);
      figures.push(
        {
          figure: `${name}: calls`,
          measured: String(outcome.calls),
          goal: `${expectedCalls(ROUTES)} (from ROUTES)`,
          met: outcome.calls === expectedCalls(ROUTES),
        },
        zero(`${name}: another user's object not answered 404`, outcome.notFoundViolations.length),
        zero(`${name}: the owner's own reads of them not 200`, outcome.ownerReadFailures.length),
        zero(`${name}: admin route with a user key not 403`, outcome.adminViolations.length),
        zero(
          `${name}: superadmin route with an admin key not 403`,
          outcome.superadminViolations.length,
        ),
        zero(`${name}: non-public route without a key not 401`, outcome.noKeyViolations.length),
        zero(`${name}: calls that moved something`, outcome.moved.length),
      );
    }
    return figures;
  },
};
