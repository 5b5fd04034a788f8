// A table's bet sizes in words. Fixed limit bets exactly the small bet in the
// early rounds and the big bet in the later ones ("bets 2/4"); in pot and no
// limit the same two numbers are only the least a bet may be (R-C-6), and "bets
// 2/4" beside "blinds 1 and 2" read to no-limit players as the stakes: "min bet 2/4"
// (kept on one line: a no-break space between "min" and "bet").
export const betWords = (structure, small, big) =>
  (structure === "fixed-limit" ? "bets " : "min\u00a0bet ") + small + "/" + big;
