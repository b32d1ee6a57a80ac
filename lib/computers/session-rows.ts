// Session rows as the domain's in-process clients read them (an agent task reusing a session, the cluster
// placing and forwarding by the session's node, and ending a dead node's sessions).
export { endSessionsOfDeadNode, findComputer, findComputerById, liveLoads } from "@/lib/computers/sessions/store";
export { findSessionToDriveHere } from "@/lib/computers/sessions/access";
