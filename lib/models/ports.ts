// What the model service asks of the parts around it, registered at start-up (lib/boot.ts): how to read
// Cabin's own image links (the session domain's screenshots), so a hosted model gets them inline.
export { registerOwnImages, type OwnImages } from "@/lib/models/images/own-images";
