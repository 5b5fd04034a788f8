// A table's bet sizes in words, as players say them (s59-tidy): fixed limit bets
// exactly the small bet in the early rounds and the big bet in the later ones
// ("fixed limit 2/4", after the blinds: "blinds 1/2, fixed limit 2/4"); in pot
// and no limit the same two numbers are only the least a bet may be (R-C-6): "no
// limit, min bet 2/4" (no-break spaces keep "min bet 2/4" on one line).
export const betWords = (structure, small, big) =>
  (structure === "fixed-limit" ? "fixed limit " : (structure || "").replace("-", " ") + ", min\u00a0bet\u00a0")
  + small + "/" + big;
