//go:build unix

package agent

import (
	"os/exec"
	"syscall"
)

// ownGroup puts the bot and everything it starts (sh -c runs the command
// as a child) into a process group of its own, so that a forfeit can stop
// them all at once.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
