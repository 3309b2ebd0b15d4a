"""Git, and only git: one small function per question (`git`), the diff between base and head
(`diff`), shallow clones (`shallow`), `.gitattributes` (`attributes`) and the refs a push sends
(`prepush`). Every git command the gate runs is here."""
