import { parseAbi } from "viem";

/** The Uniswap V2 / PancakeSwap V2 router functions a graduated token trades through. */
export const routerAbi = parseAbi([
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function swapExactTokensForETHSupportingFeeOnTransferTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)",
]);

/** WBNB's unwrap event: a DEX sale's payout to the seller is the router's last one. */
export const wethWithdrawalAbi = parseAbi(["event Withdrawal(address indexed src, uint256 wad)"]);
