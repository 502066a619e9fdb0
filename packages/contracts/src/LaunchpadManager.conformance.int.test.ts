import {
  type Abi,
  type AbiFunction,
  type Address,
  erc20Abi,
  maxUint256,
  type PrivateKeyAccount,
  parseEther,
  toFunctionSelector,
  zeroAddress,
} from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CURVE_SUPPLY, GWEI_UNIT, priceAt, quoteSell, TOTAL_SUPPLY } from "./curve.ts";
import { LaunchpadManagerArtifact } from "./generated/artifacts.ts";
import { type LocalLaunchpad, revertReason, startLocalLaunchpad } from "./test/localLaunchpad.ts";

/**
 * The local LaunchpadManager against four.meme's own documentation of TokenManager2
 * (four-meme-community/fourmeme-docs: docs/create-guide.md, trade-guide.md, tax-guide.md,
 * integration-guide.md, contracts/interfaces/ITokenManager2.sol) and its official CLI
 * (four-meme-community/four-meme-ai: skills/four-meme-integration). Each test names the
 * section it follows; where the model and the docs differ, the model is wrong.
 */
const abi = LaunchpadManagerArtifact.abi;
const functions = (abi as Abi).filter((item): item is AbiFunction => item.type === "function");
let lp: LocalLaunchpad;

beforeAll(async () => {
  lp = await startLocalLaunchpad();
});
afterAll(async () => {
  await lp?.stop();
});

const read = <T>(functionName: string, args: readonly unknown[] = []) =>
  lp.publicClient.readContract({
    address: lp.addresses.launchpad,
    abi,
    functionName,
    args,
  } as never) as Promise<T>;

/** What four-meme-ai's create-token-api.ts computes: launchFee + preSale + preSale × rate / 10000. */
const documentedValue = async (preSale: bigint) => {
  const launchFee = await read<bigint>("_launchFee");
  const rate = await read<bigint>("_tradingFeeRate");
  return launchFee + preSale + (preSale * rate) / 10_000n;
};

const sendCreate = async (creator: PrivateKeyAccount, preSale: bigint, value: bigint) => {
  const signed = await lp.signedCreate({ creator: creator.address, preSale });
  return lp.confirm(
    await lp.wallet(creator).writeContract({
      address: lp.addresses.launchpad,
      abi,
      functionName: "createToken",
      args: [signed.encoded, signed.signature],
      value,
    }),
  );
};

const simulateCreate = async (creator: PrivateKeyAccount, preSale: bigint, value: bigint) => {
  const signed = await lp.signedCreate({ creator: creator.address, preSale });
  return lp.publicClient.simulateContract({
    account: creator,
    address: lp.addresses.launchpad,
    abi,
    functionName: "createToken",
    args: [signed.encoded, signed.signature],
    value,
  });
};

describe("createToken (create-guide §4, four-meme-ai create-token-api.ts and create-token-chain.ts)", () => {
  it("create: _launchFee() and _tradingFeeRate() answer the creation fee and the trading fee rate in basis points (four-meme-ai create-token-api.ts reads both from TokenManager2)", async () => {
    const names = functions.map((f) => toFunctionSelector(f));
    expect(names).toContain(toFunctionSelector("_launchFee()"));
    expect(names).toContain(toFunctionSelector("_tradingFeeRate()"));
    expect(await read<bigint>("_launchFee")).toBe(parseEther("0.01"));
    expect(await read<bigint>("_tradingFeeRate")).toBe(100n);
  });

  it("create: a value below launchFee + preSale + preSale × tradingFeeRate / 10000 reverts (create-guide §4, four-meme-ai create-token-chain.ts)", async () => {
    const creator = await lp.account("conformance-short");
    const preSale = parseEther("0.5");
    const value = (await documentedValue(preSale)) - 1n;
    expect(await revertReason(simulateCreate(creator, preSale, value))).toBe("Value");
  });

  it("create: exactly launchFee + preSale + preSale × tradingFeeRate / 10000 creates the token; the creator's buy spends preSale on the curve with the fee on top (create-guide §4, four-meme-ai create-token-scripts.md)", async () => {
    const creator = await lp.account("conformance-exact");
    const preSale = parseEther("0.5");
    const value = await documentedValue(preSale);
    const before = await lp.publicClient.getBalance({ address: creator.address });
    const created = await sendCreate(creator, preSale, value);
    const purchase = created.events.find((e) => e.eventName === "TokenPurchase");
    expect(purchase?.args.account).toBe(creator.address);
    expect((purchase?.args.cost ?? 0n) + (purchase?.args.fee ?? 0n)).toBe(preSale + preSale / 100n);
    expect(before - (await lp.publicClient.getBalance({ address: creator.address }))).toBe(
      value + created.gasCost,
    );
  });

  it("create: a value above it is refunded to the sender in the same transaction (four-meme-ai create-token-scripts.md: excess BNB is refunded by the contract)", async () => {
    const creator = await lp.account("conformance-over");
    const preSale = parseEther("0.2");
    const value = await documentedValue(preSale);
    const before = await lp.publicClient.getBalance({ address: creator.address });
    const created = await sendCreate(creator, preSale, value + parseEther("0.7"));
    expect(before - (await lp.publicClient.getBalance({ address: creator.address }))).toBe(
      value + created.gasCost,
    );
  });

  it("create: without a preSale the value is the launch fee alone (four-meme-ai create-token-scripts.md)", async () => {
    const creator = await lp.account("conformance-no-presale");
    const value = await documentedValue(0n);
    expect(value).toBe(await read<bigint>("_launchFee"));
    const created = await sendCreate(creator, 0n, value);
    expect(created.events.map((e) => e.eventName)).toEqual(["TokenCreate"]);
  });
});

describe("sellToken (trade-guide §4.2, §5)", () => {
  let token: Address;
  let seller: PrivateKeyAccount;
  let recipient: Address;

  beforeAll(async () => {
    token = (await lp.createToken(await lp.account("conformance-sell-creator"))).token;
    seller = await lp.account("conformance-seller");
    recipient = (await lp.account("conformance-router", 0n)).address;
    await lp.confirm(
      await lp.wallet(seller).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [token, parseEther("3"), 0n],
        value: parseEther("3"),
      }),
    );
    await lp.confirm(
      await lp.wallet(seller).writeContract({
        address: token,
        abi: erc20Abi,
        functionName: "approve",
        args: [lp.addresses.launchpad, maxUint256],
      }),
    );
  });

  const tenth = async () => {
    const held = await lp.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [seller.address],
    });
    return (held / 10n / GWEI_UNIT) * GWEI_UNIT;
  };
  const routerSell = (amount: bigint, minFunds: bigint, feeRate: bigint) =>
    ({
      account: seller,
      address: lp.addresses.launchpad,
      abi,
      functionName: "sellToken",
      args: [0n, token, amount, minFunds, feeRate, recipient],
    }) as const;

  it("sell floor: minFunds equal to the gross curve quote goes through, though the seller gets that less the protocol fee (trade-guide §4.2: minFunds is compared against calcSellCost, before the protocol fee)", async () => {
    const amount = await tenth();
    const { proceeds, fee } = quoteSell(await lp.curveState(token), amount);
    const before = await lp.publicClient.getBalance({ address: seller.address });
    const sold = await lp.confirm(
      await lp.wallet(seller).writeContract(routerSell(amount, proceeds, 0n)),
    );
    expect(sold.events.find((e) => e.eventName === "TokenSale")?.args.cost).toBe(proceeds);
    expect((await lp.publicClient.getBalance({ address: seller.address })) - before).toBe(
      proceeds - fee - sold.gasCost,
    );
  });

  it("sell floor: a router cut does not count against minFunds, which stays the gross quote (trade-guide §4.2)", async () => {
    const amount = await tenth();
    const { proceeds } = quoteSell(await lp.curveState(token), amount);
    await expect(
      lp.publicClient.simulateContract(routerSell(amount, proceeds, 500n)),
    ).resolves.toBeDefined();
  });

  it("sell floor: a gross curve quote one wei below minFunds reverts Slippage (trade-guide §5)", async () => {
    const amount = await tenth();
    const { proceeds } = quoteSell(await lp.curveState(token), amount);
    expect(
      await revertReason(lp.publicClient.simulateContract(routerSell(amount, proceeds + 1n, 0n))),
    ).toBe("Slippage");
  });

  it("sell: an order whose curve quote does not exceed the protocol fee reverts SO (trade-guide §5)", async () => {
    expect(
      await revertReason(lp.publicClient.simulateContract(routerSell(GWEI_UNIT, 0n, 0n))),
    ).toBe("SO");
  });
});

describe("_tokenInfos(token).template (ITokenManager2.sol, tax-guide §2.1, integration-guide §5, four-meme-ai errors.md)", () => {
  const infoOutputs = [
    "address base",
    "address quote",
    "uint256 template",
    "uint256 totalSupply",
    "uint256 maxOffers",
    "uint256 maxRaising",
    "uint256 launchTime",
    "uint256 offers",
    "uint256 funds",
    "uint256 lastPrice",
    "uint256 K",
    "uint256 T",
    "uint256 status",
  ];
  type TokenInfo = {
    base: Address;
    quote: Address;
    template: bigint;
    totalSupply: bigint;
    maxOffers: bigint;
    maxRaising: bigint;
    offers: bigint;
    funds: bigint;
    lastPrice: bigint;
    status: bigint;
  };
  const tokenInfo = (token: Address) => read<TokenInfo>("_tokenInfos", [token]);
  const creatorType = (template: bigint) => (template >> 10n) & 0x3fn;
  const X_MODE = 0x10000n;

  it("token kinds: _tokenInfos(address) has ITokenManager2's selector and returns its TokenInfo struct, field for field (contracts/interfaces/ITokenManager2.sol)", () => {
    const fn = functions.find((f) => f.name === "_tokenInfos");
    expect(fn && toFunctionSelector(fn)).toBe(toFunctionSelector("_tokenInfos(address)"));
    const [tuple] = fn?.outputs ?? [];
    const components = (tuple as { components?: { type: string; name: string }[] } | undefined)
      ?.components;
    expect(components?.map((c) => `${c.type} ${c.name}`)).toEqual(infoOutputs);
  });

  it("token kinds: a token createToken made is a plain one: creator type (template >> 10) & 0x3F is 0 and the X Mode bit 0x10000 is clear (tax-guide §2.1; four-meme-ai errors.md)", async () => {
    const creator = await lp.account("conformance-info");
    const token = (await lp.createToken(creator, { preSale: parseEther("0.1") })).token;
    const info = await tokenInfo(token);
    expect(creatorType(info.template)).toBe(0n);
    expect(info.template & X_MODE).toBe(0n);
    const state = await lp.curveState(token);
    expect(info).toMatchObject({
      base: token,
      quote: zeroAddress,
      totalSupply: TOTAL_SUPPLY,
      maxOffers: CURVE_SUPPLY,
      maxRaising: parseEther("24"),
      offers: state.offers,
      lastPrice: priceAt(parseEther("24"), CURVE_SUPPLY - state.offers),
      status: 0n,
    });
  });

  it("token kinds: the owner's test hook sets the template read back through _tokenInfos; nobody else can (packages/contracts/README.md)", async () => {
    const token = (await lp.createToken(await lp.account("conformance-kind"))).token;
    const template = (5n << 10n) | X_MODE;
    await lp.setTokenKind(token, { template });
    const info = await tokenInfo(token);
    expect(creatorType(info.template)).toBe(5n);
    expect(info.template & X_MODE).toBe(X_MODE);
    const stranger = await lp.account("conformance-kind-stranger");
    expect(
      await revertReason(
        lp.publicClient.simulateContract({
          account: stranger,
          address: lp.addresses.launchpad,
          abi,
          functionName: "setTokenKind",
          args: [token, 0n, 2n],
        }),
      ),
    ).toBe("OwnableUnauthorizedAccount");
  });

  it("token kinds: an X Mode token's public buys revert A (four-meme-ai errors.md: X Mode tokens are bought only with buyToken(bytes args, uint256 time, bytes signature))", async () => {
    const token = (await lp.createToken(await lp.account("conformance-xmode"))).token;
    await lp.setTokenKind(token, { template: X_MODE });
    const buyer = await lp.account("conformance-xmode-buyer");
    const buy = { account: buyer, address: lp.addresses.launchpad, abi } as const;
    expect(
      await revertReason(
        lp.publicClient.simulateContract({
          ...buy,
          functionName: "buyTokenAMAP",
          args: [token, parseEther("0.1"), 0n],
          value: parseEther("0.1"),
        }),
      ),
    ).toBe("A");
    expect(
      await revertReason(
        lp.publicClient.simulateContract({
          ...buy,
          functionName: "buyToken",
          args: [token, parseEther("1000"), maxUint256],
          value: parseEther("0.1"),
        }),
      ),
    ).toBe("A");
  });

  it("token kinds: a TokenManager V1 token is not traded by TokenManager2 (integration-guide §3: V1 tokens trade on V1 only)", async () => {
    const token = (await lp.createToken(await lp.account("conformance-v1"))).token;
    await lp.setTokenKind(token, { version: 1n });
    const buyer = await lp.account("conformance-v1-buyer");
    expect(
      await revertReason(
        lp.publicClient.simulateContract({
          account: buyer,
          address: lp.addresses.launchpad,
          abi,
          functionName: "buyTokenAMAP",
          args: [token, parseEther("0.1"), 0n],
          value: parseEther("0.1"),
        }),
      ),
    ).toBe("Token");
  });

  it("token kinds: a graduated token's status is COMPLETED, 3 (trade-guide §2.1: liquidityAdded when status == COMPLETED)", async () => {
    const token = (await lp.createToken(await lp.account("conformance-graduate"))).token;
    const whale = await lp.account("conformance-whale");
    await lp.confirm(
      await lp.wallet(whale).writeContract({
        address: lp.addresses.launchpad,
        abi,
        functionName: "buyTokenAMAP",
        args: [token, parseEther("30"), 0n],
        value: parseEther("30"),
      }),
    );
    expect((await tokenInfo(token)).status).toBe(3n);
  });
});
