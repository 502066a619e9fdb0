import { createRequire } from "node:module";
import type { Abi, Hex } from "viem";

export interface BuildArtifact {
  abi: Abi;
  bytecode: Hex;
}

const require = createRequire(import.meta.url);

const load = (path: string): BuildArtifact => {
  const json = require(path) as { abi: Abi; bytecode: string };
  return { abi: json.abi, bytecode: `0x${json.bytecode.replace(/^0x/, "")}` };
};

/** Uniswap V2 as published on npm (PancakeSwap V2 speaks the same interface). */
export const UniswapV2FactoryArtifact = load("@uniswap/v2-core/build/UniswapV2Factory.json");
export const UniswapV2PairArtifact = load("@uniswap/v2-core/build/UniswapV2Pair.json");
export const UniswapV2Router02Artifact = load("@uniswap/v2-periphery/build/UniswapV2Router02.json");
export const WETH9Artifact = load("@uniswap/v2-periphery/build/WETH9.json");
