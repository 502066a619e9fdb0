/** 0x1234…abcd: the start and end of an address or hash. */
export const shortAddress = (value: string) => `${value.slice(0, 6)}…${value.slice(-4)}`;
