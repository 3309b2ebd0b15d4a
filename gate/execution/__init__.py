"""Running the judged code: the fresh checkout (`workspace`), its fresh environment (`venv`,
`installer`), the tools that run it, by version (`toolchain`), the cleaned environment variables
(`environment`), the commands and their process groups (`process`, `reaper`), the network switch
(`network`), files put over the checkout for a while (`overlay`), what killed runs left behind
(`stale`), every command's full output (`logs`), the files the judged code wrote as the gate
reads them (`judged_files`), and the isolation boundary every command of the
judged code starts in (`isolation`, made by bubblewrap: `bwrap`, around the read-only paths of
`protected`). The one place where the boundary between the gate and the code it judges is drawn."""
