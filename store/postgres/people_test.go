package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestPeople(t *testing.T) {
	storetest.People(t, freshStore(t))
}
