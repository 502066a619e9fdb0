import fc from "fast-check";
import {
  type Hex,
  parseEther,
  parseGwei,
  recoverMessageAddress,
  recoverTransactionAddress,
  type TransactionSerialized,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { addressOfKey, isNativeSigning, keyAccount, useNativeSigning } from "./keyAccount.ts";

const privateKeys = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => `0x${Buffer.from(bytes).toString("hex")}` as Hex)
  // Zero and keys at or past the curve order are not keys.
  .filter((key) => BigInt(key) > 0n && BigInt(key) < 2n ** 256n - 2n ** 129n);

const typedData = {
  domain: { name: "Bundler", version: "1", chainId: 56 },
  types: { Mail: [{ name: "contents", type: "string" }] },
  primaryType: "Mail",
  message: { contents: "hello" },
} as const;

afterEach(() => useNativeSigning(true));

describe("keyAccount", () => {
  it("runs on libsecp256k1 on this machine", () => {
    expect(isNativeSigning()).toBe(true);
  });

  for (const native of [true, false]) {
    describe(native ? "on libsecp256k1" : "on viem's curve", () => {
      it("derives the same address as viem for any key", () => {
        useNativeSigning(native);
        fc.assert(
          fc.property(privateKeys, (key) => {
            expect(addressOfKey(key)).toBe(privateKeyToAccount(key).address);
          }),
          { numRuns: 200 },
        );
      });

      it("signs the same legacy and EIP-1559 transactions as viem, byte for byte", async () => {
        useNativeSigning(native);
        await fc.assert(
          fc.asyncProperty(
            privateKeys,
            fc.nat({ max: 1_000_000 }),
            fc.bigInt({ min: 0n, max: parseEther("1000000") }),
            async (key, nonce, value) => {
              const ours = keyAccount(key);
              const theirs = privateKeyToAccount(key);
              const to = privateKeyToAccount(generatePrivateKey()).address;
              const legacy = {
                type: "legacy",
                chainId: 56,
                nonce,
                to,
                value,
                gas: 21_000n,
                gasPrice: parseGwei("1"),
              } as const;
              const eip1559 = {
                type: "eip1559",
                chainId: 97,
                nonce,
                to,
                value,
                gas: 50_000n,
                maxFeePerGas: parseGwei("3"),
                maxPriorityFeePerGas: parseGwei("1"),
                data: "0xabcdef",
              } as const;
              expect(await ours.signTransaction(legacy)).toBe(await theirs.signTransaction(legacy));
              expect(await ours.signTransaction(eip1559)).toBe(
                await theirs.signTransaction(eip1559),
              );
            },
          ),
          { numRuns: 100 },
        );
      });

      it("signs messages and typed data as viem does", async () => {
        useNativeSigning(native);
        const key = generatePrivateKey();
        const ours = keyAccount(key);
        const theirs = privateKeyToAccount(key);
        expect(await ours.signMessage({ message: "launch" })).toBe(
          await theirs.signMessage({ message: "launch" }),
        );
        expect(await ours.signTypedData(typedData)).toBe(await theirs.signTypedData(typedData));
        expect(ours.publicKey).toBe(theirs.publicKey);
      });
    });
  }

  it("signs transactions that recover to its address", async () => {
    const key = generatePrivateKey();
    const account = keyAccount(key);
    const serializedTransaction = await account.signTransaction({
      type: "legacy",
      chainId: 31337,
      nonce: 3,
      to: account.address,
      value: 1n,
      gas: 21_000n,
      gasPrice: 1n,
    });
    expect(
      await recoverTransactionAddress({
        serializedTransaction: serializedTransaction as TransactionSerialized,
      }),
    ).toBe(account.address);
    const signature = await account.signMessage({ message: "hi" });
    expect(await recoverMessageAddress({ message: "hi", signature })).toBe(account.address);
  });

  it("takes a known address as it is, checksummed, without deriving one", () => {
    const key = generatePrivateKey();
    const address = privateKeyToAccount(key).address;
    expect(keyAccount(key, address.toLowerCase() as Hex).address).toBe(address);
  });
});
