// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice A recipient that refuses BNB, for tests of partial failure (e.g. a dispersal
/// where one receiver reverts).
contract RejectsBnb {
    receive() external payable {
        revert("RejectsBnb");
    }
}
