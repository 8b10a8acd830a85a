package sqlstore

import (
	"strings"
	"testing"
)

func TestMigrationsRunWithoutGaps(t *testing.T) {
	checkMigrations() // the real list, with every registered file's migration
	saved := migrations
	defer func() { migrations = saved }()
	for _, tc := range []struct {
		name     string
		versions []int
	}{{"gap", []int{1, 2, 4}}, {"repeat", []int{1, 2, 2}}, {"not from one", []int{2, 3}}} {
		migrations = nil
		for _, v := range tc.versions {
			register(Migration{Version: v, Name: "m"})
		}
		func() {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(string), "without a gap") {
					t.Errorf("%s %v: checkMigrations recovered %v", tc.name, tc.versions, p)
				}
			}()
			checkMigrations()
		}()
	}
}
