// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The subset of Multicall3 that viem's `multicall` and our balance reads use.
/// Deployed locally at Multicall3's canonical address with anvil_setCode, so it must keep no
/// immutables and need no constructor.
contract Multicall3 {
    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    /// @notice Runs each call in order; reverts the batch when a call that may not fail does.
    function aggregate3(Call3[] calldata calls) external payable returns (Result[] memory results) {
        results = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; ++i) {
            Call3 calldata call = calls[i];
            (bool success, bytes memory returnData) = call.target.call(call.callData);
            if (!success && !call.allowFailure) revert("Multicall3: call failed");
            results[i] = Result(success, returnData);
        }
    }

    function getEthBalance(address account) external view returns (uint256) {
        return account.balance;
    }

    function getBlockNumber() external view returns (uint256) {
        return block.number;
    }

    function getCurrentBlockTimestamp() external view returns (uint256) {
        return block.timestamp;
    }

    function getChainId() external view returns (uint256) {
        return block.chainid;
    }
}
