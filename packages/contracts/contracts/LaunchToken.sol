// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {IUniswapV2Factory} from "./interfaces/IUniswapV2.sol";
import {BondingCurve} from "./BondingCurve.sol";

/// @notice A token launched by LaunchpadManager: 1B supply, 18 decimals, all minted to the
/// launchpad. Until the launchpad opens the DEX (at graduation) no tokens can reach the
/// token's DEX pair, not even bought for it through the launchpad, so nobody can price the
/// pool before graduation seeds it.
contract LaunchToken is ERC20 {
    address public immutable launchpad;
    IUniswapV2Factory private immutable dexFactory;
    address private immutable weth;
    bool public dexOpen;

    constructor(
        string memory name_,
        string memory symbol_,
        IUniswapV2Factory dexFactory_,
        address weth_
    ) ERC20(name_, symbol_) {
        launchpad = msg.sender;
        dexFactory = dexFactory_;
        weth = weth_;
        _mint(msg.sender, BondingCurve.TOTAL_SUPPLY);
    }

    function openDex() external {
        require(msg.sender == launchpad, "Launchpad");
        dexOpen = true;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (!dexOpen && to != launchpad && from != address(0)) {
            require(to != dexFactory.getPair(address(this), weth), "Pair");
        }
        super._update(from, to, value);
    }
}
