// Sitting down (create or accept a challenge): this browser contributes a random client seed for
// the dice (games/fairness), shown in its field so the player may replace it before sending.
import { newClientSeed } from "./fairness.js";

for (const input of document.querySelectorAll("input[data-client-seed]")) {
  if (!input.value) input.value = newClientSeed();
}
