import { createRequire } from "node:module";
import {
  type Address,
  bytesToHex,
  getAddress,
  type Hex,
  hashMessage,
  hashTypedData,
  hexToBytes,
  keccak256,
  type LocalAccount,
  serializeSignature,
  serializeTransaction,
  type TransactionSerializable,
} from "viem";
import { privateKeyToAccount, sign as viemSign } from "viem/accounts";

/**
 * The secp256k1 work of signing and of deriving an address: libsecp256k1 through the
 * `secp256k1` package's N-API binding (prebuilt for Linux, macOS and Windows, built with
 * node-gyp elsewhere), about 7× faster than the pure-JS curve viem uses. A dispersal signs a
 * thousand transfers a block, so this is what decides how many blocks it takes. When the binding
 * cannot load, the same functions run on viem's curve: slower, identical bytes.
 */
interface NativeCurve {
  ecdsaSign(hash: Uint8Array, privateKey: Uint8Array): { signature: Uint8Array; recid: number };
  publicKeyCreate(privateKey: Uint8Array, compressed: boolean): Uint8Array;
}

const loadNative = (): NativeCurve | null => {
  try {
    // `secp256k1/bindings` is the binding alone; the package's main entry would fall back to
    // a slower JS curve (elliptic) silently.
    return createRequire(import.meta.url)("secp256k1/bindings") as NativeCurve;
  } catch {
    return null;
  }
};

let native: NativeCurve | null | undefined;
const curve = (): NativeCurve | null => {
  if (native === undefined) native = loadNative();
  return native;
};

/** Whether signing runs on libsecp256k1 (false: on viem's JS curve). */
export const isNativeSigning = (): boolean => curve() !== null;

/** Only for tests: sign on viem's curve even when the binding is there (or back to native). */
export const useNativeSigning = (on: boolean): void => {
  native = on ? loadNative() : null;
};

interface Signature {
  r: Hex;
  s: Hex;
  v: bigint;
  yParity: number;
}

const signHash = async (hash: Hex, privateKey: Hex): Promise<Signature> => {
  const secp = curve();
  if (!secp) return (await viemSign({ hash, privateKey })) as Signature;
  // RFC 6979 nonces and low-s, as viem signs: the same key and hash give the same bytes.
  const { signature, recid } = secp.ecdsaSign(hexToBytes(hash), hexToBytes(privateKey));
  return {
    r: bytesToHex(signature.subarray(0, 32)),
    s: bytesToHex(signature.subarray(32, 64)),
    v: recid ? 28n : 27n,
    yParity: recid,
  };
};

/** The uncompressed public key (0x04…) of a private key. */
const publicKeyOf = (privateKey: Hex): Hex => {
  const secp = curve();
  if (!secp) return privateKeyToAccount(privateKey).publicKey;
  return bytesToHex(secp.publicKeyCreate(hexToBytes(privateKey), false));
};

/**
 * The checksummed address of a private key.
 *
 * @example
 * const address = addressOfKey(generatePrivateKey());
 */
export const addressOfKey = (privateKey: Hex): Address =>
  getAddress(`0x${keccak256(`0x${publicKeyOf(privateKey).slice(4)}`).slice(-40)}`);

/**
 * A viem local account for a private key, signing with libsecp256k1 when it loads: the same
 * signatures as `privateKeyToAccount`, at a seventh of the cost. Pass the address when it is
 * already known (a key vault row) and none is derived at all.
 *
 * @example
 * const account = keyAccount(privateKey);
 * const raw = await account.signTransaction({ type: "legacy", chainId: 56, to, value, nonce, gas, gasPrice });
 */
export const keyAccount = (privateKey: Hex, knownAddress?: Address): LocalAccount => {
  const address = knownAddress ? getAddress(knownAddress) : addressOfKey(privateKey);
  let publicKey: Hex | undefined;
  const sign = async ({ hash }: { hash: Hex }) =>
    serializeSignature(await signHash(hash, privateKey));
  return {
    address,
    get publicKey() {
      publicKey ??= publicKeyOf(privateKey);
      return publicKey;
    },
    source: "privateKey",
    type: "local",
    sign,
    signMessage: ({ message }) => sign({ hash: hashMessage(message) }),
    signTypedData: (typedData) => sign({ hash: hashTypedData(typedData) }),
    signTransaction: async (transaction, options) => {
      const serializer = options?.serializer ?? serializeTransaction;
      // EIP-4844: the signature covers the payload without its sidecars (as viem does).
      const signable =
        transaction.type === "eip4844"
          ? ({ ...transaction, sidecars: false } as TransactionSerializable)
          : transaction;
      const signature = await signHash(keccak256(await serializer(signable)), privateKey);
      return serializer(transaction, signature);
    },
    signAuthorization: (authorization) =>
      privateKeyToAccount(privateKey).signAuthorization(authorization),
  };
};
